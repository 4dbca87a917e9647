package dev.h2beam.adapters.plugin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.h2beam.adapters.bench.Benchmark;
import dev.h2beam.adapters.bench.BenchmarkProvider;
import dev.h2beam.adapters.bench.Benchmarks;
import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * One rule for every plug-in kind: found by name, built-ins first, the first of a name wins, errors name the rest; a
 * registration that cannot load or loses its name is reported with its jar and does not break the others.
 */
class RegistryTest {

  @Test
  void findsTheRegisteredProvidersByNameInNameOrder() {
    TreeMap<String, BenchmarkProvider> all = Registry.byName(BenchmarkProvider.class, BenchmarkProvider::name);
    assertEquals(List.of("folder", "jobbench"), List.copyOf(all.keySet()));
    assertEquals("folder", Registry.named(BenchmarkProvider.class, all, "folder", "unused", "").name());
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
        BenchmarkProvider.class, Registry.byName(BenchmarkProvider.class, BenchmarkProvider::name), "nope",
        "--bench=nope is not known",
        "(add its jar)"));
    assertEquals("--bench=nope is not known; known: [folder, jobbench] (add its jar)", e.getMessage());
  }

  @Test
  void aProviderThatCannotLoadIsReportedWithItsJarAndCauseAndTheOthersStillLoad(@TempDir Path dir) throws Exception {
    // a class file of Java 25 (major 69), a stale entry, and a good provider, in one plug-in jar
    Path jar = pluginJar(dir, Map.of("plug.Newer", provider("Newer", "newer"), "plug.Late", provider("Late", "late")),
        "plug.Newer\nno.such.Gone\nplug.Late\n", "plug.Newer");
    String[] err = new String[1];
    TreeMap<String, BenchmarkProvider> all = inLoader(jar, () -> {
      err[0] = stderr(() -> Registry.byName(BenchmarkProvider.class, BenchmarkProvider::name));
      return Registry.byName(BenchmarkProvider.class, BenchmarkProvider::name);
    });
    assertEquals(List.of("folder", "jobbench", "late"), List.copyOf(all.keySet()));
    String newer = "plug.Newer (" + jar + "), registered as a BenchmarkProvider: compiled for Java 25 (class file 69),"
        + " this JVM is Java " + Runtime.version().feature() + ": rebuild it with --release "
        + Runtime.version().feature();
    assertTrue(err[0].contains("warning: " + newer), err[0]);
    assertTrue(err[0].contains("no.such.Gone (not on the class path), registered as a BenchmarkProvider: no such"
        + " class"), err[0]);
    assertEquals(2, err[0].lines().count(), "each reported once: " + err[0]);

    IllegalArgumentException e = inLoader(jar, () -> assertThrows(IllegalArgumentException.class,
        () -> Registry.named(BenchmarkProvider.class, Registry.byName(BenchmarkProvider.class,
            BenchmarkProvider::name), "newer", "--bench=newer is not a known benchmark", "")));
    assertTrue(e.getMessage().startsWith("--bench=newer is not a known benchmark; known: [folder, jobbench, late]; 2"
        + " registered BenchmarkProviders were not loaded, and may be the one asked for:\n  " + newer),
        e.getMessage());
  }

  @Test
  void aRegistrationThatLosesItsNameIsReportedNamingItsJarAndTheWinner(@TempDir Path dir) throws Exception {
    Path jar = pluginJar(dir, Map.of("plug.Clash", provider("Clash", "folder")), "plug.Clash\n", "");
    String err = inLoader(jar, () -> stderr(() -> {
      assertEquals("folder", Registry.byName(BenchmarkProvider.class, BenchmarkProvider::name).get("folder").name());
      assertTrue(Registry.byName(BenchmarkProvider.class, BenchmarkProvider::name).get("folder").getClass().getName()
          .startsWith("dev.h2beam."));
      return null;
    }));
    assertTrue(err.startsWith("warning: plug.Clash (" + jar + ") registers the BenchmarkProvider name 'folder', which"
        + " dev.h2beam.adapters.folder.FolderBenchmarkProvider ("), err);
    assertTrue(err.contains("already has: the first registration of a name wins, so it is not used; give it another"
        + " name"), err);
    assertEquals(1, err.lines().count(), "reported once: " + err);
  }

  /**
   * A registration whose name is no name (null, empty, a path, or a name() that throws) is left out with one line
   * naming its class and jar; the lookup of every other name of its kind still works (a null name broke them all).
   */
  @Test
  void aRegistrationWithoutAUsableNameIsReportedAndTheOthersStillLoad(@TempDir Path dir) throws Exception {
    Path jar = pluginJar(dir, Map.of("plug.Nameless", providerNamed("Nameless", "null"), "plug.Empty",
        providerNamed("Empty", "\"\""), "plug.Pathy", providerNamed("Pathy", "\"../x\""), "plug.Throws",
        providerNamed("Throws", "String.valueOf(1 / 0)"), "plug.Fine", provider("Fine", "fine.v2_x-1")),
        "plug.Nameless\nplug.Empty\nplug.Pathy\nplug.Throws\nplug.Fine\n", "");
    String[] err = new String[1];
    TreeMap<String, BenchmarkProvider> all = inLoader(jar, () -> {
      err[0] = stderr(() -> Registry.byName(BenchmarkProvider.class, BenchmarkProvider::name));
      return Registry.byName(BenchmarkProvider.class, BenchmarkProvider::name);
    });
    assertEquals(List.of("fine.v2_x-1", "folder", "jobbench"), List.copyOf(all.keySet()));
    assertTrue(err[0].contains("warning: plug.Nameless (" + jar + ") registers a BenchmarkProvider named null, which"
        + " is no name: give it up to 64 letters, digits, '.', '_' or '-', beginning with a letter or digit; it is"
        + " not loaded, the other BenchmarkProviders are"), err[0]);
    assertTrue(err[0].contains("plug.Empty (" + jar + ") registers a BenchmarkProvider named '', which is no name"),
        err[0]);
    assertTrue(err[0].contains("plug.Pathy (" + jar + ") registers a BenchmarkProvider named '../x', which is no"
        + " name"), err[0]);
    assertTrue(err[0].contains("plug.Throws (" + jar + "): its name() failed (java.lang.ArithmeticException: / by"
        + " zero); it is not loaded"), err[0]);
    assertEquals(4, err[0].lines().count(), "each reported once: " + err[0]);
  }

  /**
   * Which code a plug-in is: h2beam's own for a class beside the home class, else a digest of its jar that the same
   * classes built again (another manifest, other times) keep and any other class or resource changes.
   */
  @Test
  void aPluginsCodeIsItsJarsClassesAndResourcesNotItsBuildTime(@TempDir Path dir) throws Exception {
    Map<String, Object> own = PluginCode.of(Benchmarks.named("folder").getClass(), BenchmarkProvider.class);
    assertEquals(Map.of("class", "dev.h2beam.adapters.folder.FolderBenchmarkProvider", "code", PluginCode.BUILT_IN),
        own);
    Path a = pluginJar(dir.resolve("a"), Map.of("plug.Fine", provider("Fine", "fine")), "plug.Fine\n", "");
    Map<String, Object> code = inLoader(a, () -> PluginCode.of(Registry.byName(BenchmarkProvider.class,
        BenchmarkProvider::name).get("fine").getClass(), BenchmarkProvider.class));
    assertEquals("plug.Fine", code.get("class"));
    assertEquals("plugin.jar", code.get("from"));
    assertTrue(String.valueOf(code.get("code")).matches("sha256:[0-9a-f]{64}"), code.toString());
    assertEquals(code.get("code"), "sha256:" + PluginCode.digest(a));

    // the same classes, built again a second later, with a manifest and Maven's metadata: the same code
    Path b = dir.resolve("b.jar");
    Thread.sleep(1100);
    try (OutputStream os = Files.newOutputStream(b); JarOutputStream z = new JarOutputStream(os,
        new java.util.jar.Manifest(new java.io.ByteArrayInputStream("Manifest-Version: 1.0\nBuild-Jdk-Spec: 17\n\n"
            .getBytes(StandardCharsets.UTF_8)))); java.util.jar.JarFile in = new java.util.jar.JarFile(a.toFile())) {
      z.putNextEntry(new JarEntry("META-INF/maven/plug/fine/pom.properties"));
      z.write(("#" + System.nanoTime() + "\n").getBytes(StandardCharsets.UTF_8));
      for (JarEntry e : java.util.Collections.list(in.entries())) {
        z.putNextEntry(new JarEntry(e.getName()));
        z.write(in.getInputStream(e).readAllBytes());
      }
    }
    assertEquals(PluginCode.digest(a), PluginCode.digest(b));
    // the jar's entries as a class folder are the same code too
    Path folder = dir.resolve("unpacked");
    try (java.util.jar.JarFile in = new java.util.jar.JarFile(a.toFile())) {
      for (JarEntry e : java.util.Collections.list(in.entries())) {
        Path f = folder.resolve(e.getName());
        Files.createDirectories(f.getParent());
        Files.write(f, in.getInputStream(e).readAllBytes());
      }
    }
    assertEquals(PluginCode.digest(a), PluginCode.digest(folder));
    Path c = pluginJar(dir.resolve("c"), Map.of("plug.Fine", provider("Fine", "fine2")), "plug.Fine\n", "");
    assertTrue(!PluginCode.digest(a).equals(PluginCode.digest(c)), "another class is other code");
  }

  /** A provider class's source whose name() returns the Java expression {@code expression}. */
  private static String providerNamed(String simple, String expression) {
    return provider(simple, "\u0000").replace("\"\u0000\"", expression);
  }

  /** A provider class's source, named {@code name}. */
  private static String provider(String simple, String name) {
    return "package plug; public class " + simple + " implements dev.h2beam.adapters.bench.BenchmarkProvider {"
        + " public String name() { return \"" + name + "\"; } public String description() { return \"\"; }"
        + " public dev.h2beam.adapters.bench.Benchmark open(java.nio.file.Path r, java.util.Map<String, String> s) {"
        + " throw new UnsupportedOperationException(); } }";
  }

  /**
   * A jar of the classes compiled from {@code sources} (by class name) and a registration file listing
   * {@code registered}; {@code newer}'s class file is marked as Java 25's.
   */
  private static Path pluginJar(Path dir, Map<String, String> sources, String registered, String newer)
      throws Exception {
    Path src = Files.createDirectories(dir.resolve("src"));
    Path out = Files.createDirectories(dir.resolve("out"));
    List<String> args = new ArrayList<>(List.of("--release", "17", "-d", out.toString(), "-cp",
        System.getProperty("java.class.path")));
    for (var e : sources.entrySet()) {
      Path f = Files.createDirectories(src.resolve(e.getKey().replace('.', '_'))).resolve(e.getKey()
          .substring(e.getKey().lastIndexOf('.') + 1) + ".java");
      Files.writeString(f, e.getValue());
      args.add(f.toString());
    }
    assertEquals(0, ToolProvider.getSystemJavaCompiler().run(null, null, null, args.toArray(new String[0])));
    if (!newer.isEmpty()) {
      Path c = out.resolve(newer.replace('.', '/') + ".class");
      byte[] b = Files.readAllBytes(c);
      b[6] = 0;
      b[7] = 69;
      Files.write(c, b);
    }
    Path jar = dir.resolve("plugin.jar");
    try (OutputStream os = Files.newOutputStream(jar); JarOutputStream z = new JarOutputStream(os);
        Stream<Path> files = Files.walk(out)) {
      for (Path f : files.filter(Files::isRegularFile).toList()) {
        z.putNextEntry(new JarEntry(out.relativize(f).toString().replace('\\', '/')));
        z.write(Files.readAllBytes(f));
      }
      z.putNextEntry(new JarEntry("META-INF/services/" + BenchmarkProvider.class.getName()));
      z.write(registered.getBytes(StandardCharsets.UTF_8));
    }
    return jar;
  }

  /** Runs {@code body} with a thread class loader that adds {@code jar} to the test's class path. */
  private static <V> V inLoader(Path jar, Callable<V> body) throws Exception {
    Thread t = Thread.currentThread();
    ClassLoader before = t.getContextClassLoader();
    try (URLClassLoader loader = new URLClassLoader(new URL[] {jar.toUri().toURL()}, RegistryTest.class
        .getClassLoader())) {
      t.setContextClassLoader(loader);
      return body.call();
    } finally {
      t.setContextClassLoader(before);
    }
  }

  /** What {@code body} wrote on stderr. */
  private static String stderr(Callable<?> body) throws Exception {
    PrintStream before = System.err;
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    System.setErr(new PrintStream(bytes, true, StandardCharsets.UTF_8));
    try {
      body.call();
    } finally {
      System.setErr(before);
    }
    return bytes.toString(StandardCharsets.UTF_8);
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
