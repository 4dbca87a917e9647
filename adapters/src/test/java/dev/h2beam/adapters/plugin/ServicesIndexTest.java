package dev.h2beam.adapters.plugin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.h2beam.adapters.bench.BenchmarkProvider;
import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The services index gives the providers the JDK's loader would find, in its order, and reads a jar again whenever
 * the jar is not the one it recorded.
 */
class ServicesIndexTest {

  /** A jar holding only registration files ({@code service -> lines}) and, when given, a manifest Class-Path. */
  static Path jar(Path at, String classPath, Map<String, String> services) throws IOException {
    Manifest m = new Manifest();
    m.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
    if (classPath != null) m.getMainAttributes().put(Attributes.Name.CLASS_PATH, classPath);
    try (OutputStream out = Files.newOutputStream(at); JarOutputStream j = new JarOutputStream(out, m)) {
      j.putNextEntry(new JarEntry("META-INF/services/"));
      j.closeEntry();
      for (var e : services.entrySet()) {
        j.putNextEntry(new JarEntry("META-INF/services/" + e.getKey()));
        j.write(e.getValue().getBytes(StandardCharsets.UTF_8));
        j.closeEntry();
      }
      j.putNextEntry(new JarEntry("META-INF/services/nested/ignored"));
      j.write("x.Nested\n".getBytes(StandardCharsets.UTF_8));
      j.closeEntry();
    }
    return at;
  }

  @Test
  void providersComeInClassPathOrderTheFirstOfANameKept(@TempDir Path dir) throws IOException {
    Path a = jar(dir.resolve("a.jar"), null, Map.of("s.Svc", "# header\na.One\n  a.Two  # why\n\na.One\n"));
    Path folder = Files.createDirectories(dir.resolve("classes/META-INF/services")).getParent().getParent();
    Files.writeString(folder.resolve("META-INF/services/s.Svc"), "f.Three\na.Two\n");
    Path b = jar(dir.resolve("b.jar"), null, Map.of("s.Svc", "b.Four\n", "s.Other", "b.Five\n"));
    ServicesIndex index = ServicesIndex.open(dir.resolve("idx"), List.of(a, folder, dir.resolve("missing.jar"), b));
    assertEquals(List.of("a.One", "a.Two", "f.Three", "b.Four"), index.providers("s.Svc"));
    assertEquals(List.of("b.Five"), index.providers("s.Other"));
    assertEquals(List.of(), index.providers("s.None"));
    assertEquals(List.of(), index.providers("nested/ignored"));
    assertTrue(Files.exists(dir.resolve("idx")));
  }

  @Test
  void anUnchangedJarIsTakenFromTheFileAndAChangedOneReadAgain(@TempDir Path dir) throws IOException {
    Path a = jar(dir.resolve("a.jar"), null, Map.of("s.Svc", "a.One\n"));
    Path idx = dir.resolve("idx");
    ServicesIndex.open(idx, List.of(a));
    // the recorded name edited in the file: an unchanged jar is not opened, so the edit is what comes back
    String text = Files.readString(idx);
    assertTrue(text.contains("svc\ts.Svc\ta.One\n"), text);
    Files.writeString(idx, text.replace("a.One", "a.Recorded"));
    assertEquals(List.of("a.Recorded"), ServicesIndex.open(idx, List.of(a)).providers("s.Svc"));
    // the same jar rebuilt (another time): read again, and the file written anew
    FileTime t = Files.getLastModifiedTime(a);
    jar(a, null, Map.of("s.Svc", "a.Rebuilt\n"));
    Files.setLastModifiedTime(a, FileTime.fromMillis(t.toMillis() + 2_000));
    assertEquals(List.of("a.Rebuilt"), ServicesIndex.open(idx, List.of(a)).providers("s.Svc"));
    assertTrue(Files.readString(idx).contains("svc\ts.Svc\ta.Rebuilt\n"));
    assertFalse(Files.readString(idx).contains("a.Recorded"));
  }

  @Test
  void aFileThatIsNotAnIndexIsReplacedByOne(@TempDir Path dir) throws IOException {
    Path a = jar(dir.resolve("a.jar"), null, Map.of("s.Svc", "a.One\n"));
    Path idx = dir.resolve("idx");
    for (String junk : List.of("", "not an index\n", "h2beam services index 1\njar\tx\n",
        "h2beam services index 1\nsomething else\n")) {
      Files.writeString(idx, junk);
      assertEquals(List.of("a.One"), ServicesIndex.open(idx, List.of(a)).providers("s.Svc"), junk);
      assertTrue(Files.readString(idx).startsWith("h2beam services index 1\njar\t"), junk);
    }
    // a folder where the file should be: the jars are read, nothing is written, nothing fails
    Path asFolder = Files.createDirectories(dir.resolve("folder-idx"));
    assertEquals(List.of("a.One"), ServicesIndex.open(asFolder, List.of(a)).providers("s.Svc"));
  }

  @Test
  void theJarsAManifestNamesComeRightAfterIt(@TempDir Path dir) throws IOException {
    Files.createDirectories(dir.resolve("lib"));
    jar(dir.resolve("lib/named.jar"), null, Map.of("s.Svc", "n.Named\n"));
    Path a = jar(dir.resolve("a.jar"), "lib/named.jar lib/absent.jar http://elsewhere/x.jar",
        Map.of("s.Svc", "a.One\n"));
    Path c = jar(dir.resolve("c.jar"), null, Map.of("s.Svc", "c.Three\n"));
    Path idx = dir.resolve("idx");
    assertEquals(List.of("a.One", "n.Named", "c.Three"),
        ServicesIndex.open(idx, List.of(a, c)).providers("s.Svc"));
    // and from the file the same
    assertEquals(List.of("a.One", "n.Named", "c.Three"),
        ServicesIndex.open(idx, List.of(a, c)).providers("s.Svc"));
    // a jar named twice is read once, where it first comes
    assertEquals(List.of("c.Three", "a.One", "n.Named"),
        ServicesIndex.open(idx, List.of(c, a, dir.resolve("lib/named.jar"))).providers("s.Svc"));
  }

  @Test
  void aPlugInJarOfOneRunStaysRecordedForTheNext(@TempDir Path dir) throws IOException {
    Path a = jar(dir.resolve("a.jar"), null, Map.of("s.Svc", "a.One\n"));
    Path plugin = jar(dir.resolve("plugin.jar"), null, Map.of("s.Svc", "p.Plugged\n"));
    Path idx = dir.resolve("idx");
    assertEquals(List.of("a.One", "p.Plugged"), ServicesIndex.open(idx, List.of(a, plugin)).providers("s.Svc"));
    assertEquals(List.of("a.One"), ServicesIndex.open(idx, List.of(a)).providers("s.Svc"));
    assertTrue(Files.readString(idx).contains("p.Plugged"));
    Files.delete(plugin);
    Path b = jar(dir.resolve("b.jar"), null, Map.of("s.Svc", "b.Two\n"));
    assertEquals(List.of("a.One", "b.Two"), ServicesIndex.open(idx, List.of(a, b)).providers("s.Svc"));
    assertFalse(Files.readString(idx).contains("p.Plugged"), "a jar that is gone is forgotten at the next write");
  }

  @Test
  void onThisTestsClassPathItFindsWhatTheJdkFinds(@TempDir Path dir) {
    List<Path> cp = new ArrayList<>();
    for (String e : System.getProperty("java.class.path").split(File.pathSeparator)) cp.add(Path.of(e));
    ServicesIndex fresh = ServicesIndex.open(dir.resolve("idx"), cp);
    ServicesIndex fromFile = ServicesIndex.open(dir.resolve("idx"), cp);
    int compared = 0;
    for (String service : List.of(BenchmarkProvider.class.getName(), "org.junit.platform.engine.TestEngine",
        "com.fasterxml.jackson.core.JsonFactory", "com.fasterxml.jackson.databind.Module")) {
      Class<?> type;
      try {
        type = Class.forName(service);
      } catch (ClassNotFoundException e) {
        continue;
      }
      List<String> jdk = ServiceLoader.load(type).stream().map(p -> p.type().getName()).toList();
      assertEquals(jdk, fresh.providers(service), service);
      assertEquals(jdk, fromFile.providers(service), service);
      compared += jdk.isEmpty() ? 0 : 1;
    }
    assertTrue(compared >= 2, "at least the benchmarks and JUnit's engines are registered on this class path");
  }

  @Test
  void slf4jIsToldItsProviderOnlyWhenTheClassPathHasExactlyOne(@TempDir Path dir) throws IOException {
    String svc = "org.slf4j.spi.SLF4JServiceProvider";
    Path one = jar(dir.resolve("one.jar"), null, Map.of(svc, "x.Simple\n"));
    Path two = jar(dir.resolve("two.jar"), null, Map.of(svc, "y.Other\n"));
    ServicesIndex single = ServicesIndex.open(dir.resolve("idx1"), List.of(one));
    java.util.Properties none = new java.util.Properties();
    assertEquals(Map.of("slf4j.provider", "x.Simple", "slf4j.internal.verbosity", "WARN"),
        ServicesIndex.loggingProperties(single, none));
    // the command line's choices stay: a provider it named, a verbosity it set
    java.util.Properties named = new java.util.Properties();
    named.setProperty("slf4j.provider", "z.Mine");
    assertEquals(Map.of(), ServicesIndex.loggingProperties(single, named));
    java.util.Properties verbose = new java.util.Properties();
    verbose.setProperty("slf4j.internal.verbosity", "DEBUG");
    assertEquals(Map.of("slf4j.provider", "x.Simple"), ServicesIndex.loggingProperties(single, verbose));
    // two providers or none: SLF4J chooses (and warns) as it always did
    assertEquals(Map.of(), ServicesIndex.loggingProperties(
        ServicesIndex.open(dir.resolve("idx2"), List.of(one, two)), none));
    assertEquals(Map.of(), ServicesIndex.loggingProperties(
        ServicesIndex.open(dir.resolve("idx0"), List.of()), none));
  }

  @Test
  void aTypeOfTheJdksOwnIsLookedUpByTheJdk() {
    // the JDK's modules provide file systems the class path does not list; the index is for the class path's types
    assertFalse(Registry.onClassPath(java.nio.file.spi.FileSystemProvider.class));
    assertTrue(Registry.onClassPath(BenchmarkProvider.class));
  }

  @Test
  void aProviderIsMadeAsTheJdkMakesItOrRefusedNamingIt() {
    ClassLoader loader = getClass().getClassLoader();
    assertEquals("folder", Registry.instantiate(BenchmarkProvider.class,
        "dev.h2beam.adapters.folder.FolderBenchmarkProvider", loader).name());
    ServiceConfigurationError missing = assertThrows(ServiceConfigurationError.class,
        () -> Registry.instantiate(BenchmarkProvider.class, "no.such.Provider", loader));
    assertTrue(missing.getMessage().contains("no.such.Provider not found"), missing.getMessage());
    ServiceConfigurationError notOne = assertThrows(ServiceConfigurationError.class,
        () -> Registry.instantiate(BenchmarkProvider.class, "java.lang.String", loader));
    assertTrue(notOne.getMessage().contains("java.lang.String not a subtype"), notOne.getMessage());
  }
}
