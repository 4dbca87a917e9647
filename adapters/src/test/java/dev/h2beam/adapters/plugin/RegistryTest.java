package dev.h2beam.adapters.plugin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.h2beam.adapters.bench.Benchmark;
import dev.h2beam.adapters.bench.BenchmarkProvider;
import dev.h2beam.adapters.bench.Benchmarks;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** One rule for every plug-in kind: found by name, built-ins first, the first of a name wins, errors name the rest. */
class RegistryTest {

  @Test
  void findsTheRegisteredProvidersByNameInNameOrder() {
    TreeMap<String, BenchmarkProvider> all = Registry.byName(BenchmarkProvider.class, BenchmarkProvider::name);
    assertEquals(List.of("folder", "jobbench"), List.copyOf(all.keySet()));
    assertEquals("folder", Registry.named(all, "folder", "unused", "").name());
  }

  @Test
  void aBuiltInKeepsItsNameOverARegistrationOfTheSameName() {
    BenchmarkProvider registered = Benchmarks.named("folder");
    BenchmarkProvider builtIn = new Impostor("folder");
    TreeMap<String, BenchmarkProvider> all = Registry.byName(BenchmarkProvider.class, BenchmarkProvider::name,
        List.of(builtIn, new Impostor("folder"), new Impostor("extra")));
    assertSame(builtIn, all.get("folder"));
    assertEquals(List.of("extra", "folder", "jobbench"), List.copyOf(all.keySet()));
    assertEquals(registered.getClass(), Registry.byName(BenchmarkProvider.class, BenchmarkProvider::name)
        .get("folder").getClass());
  }

  @Test
  void anUnknownNameIsRefusedNamingTheKnownOnesAndTheHint() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Registry.named(
        Registry.byName(BenchmarkProvider.class, BenchmarkProvider::name), "nope", "--bench=nope is not known",
        "(add its jar)"));
    assertEquals("--bench=nope is not known; known: [folder, jobbench] (add its jar)", e.getMessage());
  }

  /** A provider that only has a name. */
  private record Impostor(String name) implements BenchmarkProvider {
    @Override public String description() {
      return "a name only";
    }

    @Override public Benchmark open(Path root, Map<String, String> settings) {
      throw new UnsupportedOperationException("never opened");
    }
  }
}
