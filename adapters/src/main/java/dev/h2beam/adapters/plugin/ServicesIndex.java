package dev.h2beam.adapters.plugin;

import dev.h2beam.adapters.files.AtomicFiles;
import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import java.util.jar.Attributes;
import java.util.jar.JarFile;
import java.util.jar.Manifest;
import java.util.zip.ZipEntry;

/**
 * What each jar of a class path registers in {@code META-INF/services}, kept in a file between runs, so that finding
 * a plug-in no longer opens every jar of the class path: the JDK's {@link java.util.ServiceLoader} opens all of them
 * (52 on the launcher's class path) and reads their central directories on the first lookup, about a tenth of a
 * resume's time (BENCHMARKS.md, issue 12).
 *
 * <p>The file is a cache and checks itself. Each jar is recorded with its size and modification time; a jar whose
 * record is missing or different, and every folder on the class path, is read directly as the JDK would read it, and
 * the file is then written anew (a sibling temp file renamed into place, so concurrent runs each leave a complete
 * file). A file that cannot be read or written costs only the time it would have saved. Providers come out in the
 * JDK's order: class-path order, then each registration file's order, the first of a class name kept.
 *
 * <p>The launcher names the file with the system property {@value #PROPERTY}; without it (tests, a hand-made
 * command line, a worker of a cluster) lookups go to the JDK's loader as before.
 */
final class ServicesIndex {
  /** The system property that names the index file. */
  static final String PROPERTY = "h2beam.servicesIndex";

  private static final String MAGIC = "h2beam services index 1";
  private static final String PREFIX = "META-INF/services/";

  /**
   * What one jar holds: its registrations by service, and the jars its manifest's {@code Class-Path} names (resolved;
   * the JDK reads those right after it).
   */
  record Contents(Map<String, List<String>> services, List<String> classPath) {}

  /** One class-path jar as recorded: where, how large, when modified, and what it holds. */
  record Jar(String path, long size, long modifiedNanos, Contents contents) {
    Map<String, List<String>> services() {
      return contents.services();
    }

    List<String> classPath() {
      return contents.classPath();
    }
  }

  private final List<Path> classPath;
  private final Map<Path, Map<String, List<String>>> byEntry;

  private ServicesIndex(List<Path> classPath, Map<Path, Map<String, List<String>>> byEntry) {
    this.classPath = classPath;
    this.byEntry = byEntry;
  }

  /**
   * The index for the running JVM's class path, when the launcher named a file with {@value #PROPERTY}; loaded once,
   * brought up to date on first use.
   */
  static Optional<ServicesIndex> forThisJvm() {
    return Holder.INDEX;
  }

  private static final class Holder {
    static final Optional<ServicesIndex> INDEX = load();

    private static Optional<ServicesIndex> load() {
      String file = System.getProperty(PROPERTY, "");
      if (file.isEmpty()) return Optional.empty();
      try {
        List<Path> cp = new ArrayList<>();
        for (String e : System.getProperty("java.class.path", "").split(File.pathSeparator)) {
          if (!e.isEmpty()) cp.add(Path.of(e));
        }
        return Optional.of(open(Path.of(file), cp));
      } catch (RuntimeException e) {
        return Optional.empty();   // a path this file system cannot name: the JDK's lookup, as without the file
      }
    }
  }

  /**
   * The registrations of every entry of {@code classPath}, from {@code file} where it holds a jar unchanged, read
   * directly otherwise; {@code file} is written anew when anything had to be read directly from a jar.
   */
  static ServicesIndex open(Path file, List<Path> classPath) {
    Map<String, Jar> recorded = read(file);
    Map<Path, Map<String, List<String>>> byEntry = new LinkedHashMap<>();
    List<Jar> jars = new ArrayList<>();
    boolean changed = false;
    for (Path entry : classPath) changed |= add(entry, recorded, byEntry, jars);
    if (changed) {
      // jars of other runs' class paths (plug-ins) stay recorded while they exist, so runs with and without them do
      // not take turns at reading them again
      Map<String, Jar> kept = new LinkedHashMap<>();
      for (Jar j : jars) kept.put(j.path(), j);
      recorded.forEach((path, j) -> {
        if (!kept.containsKey(path) && Files.isRegularFile(Path.of(path))) kept.put(path, j);
      });
      write(file, List.copyOf(kept.values()));
    }
    return new ServicesIndex(List.copyOf(byEntry.keySet()), byEntry);
  }

  /**
   * Adds {@code entry}, then the jars its manifest names, unless already there (the JDK's order and its rule for a
   * jar named twice); returns whether a jar had to be read directly.
   */
  private static boolean add(Path entry, Map<String, Jar> recorded, Map<Path, Map<String, List<String>>> byEntry,
      List<Jar> jars) {
    if (byEntry.containsKey(entry)) return false;
    BasicFileAttributes a;
    try {
      a = Files.readAttributes(entry, BasicFileAttributes.class);
    } catch (IOException e) {
      byEntry.put(entry, Map.of());   // as the JDK does: an entry that is not there registers nothing
      return false;
    }
    if (a.isDirectory()) {
      byEntry.put(entry, inFolder(entry));
      return false;
    }
    long modified = a.lastModifiedTime().to(TimeUnit.NANOSECONDS);
    Jar known = recorded.get(entry.toString());
    boolean changed = false;
    if (known == null || known.size() != a.size() || known.modifiedNanos() != modified) {
      known = new Jar(entry.toString(), a.size(), modified, inJar(entry));
      changed = true;
    }
    jars.add(known);
    byEntry.put(entry, known.services());
    for (String named : known.classPath()) changed |= add(Path.of(named), recorded, byEntry, jars);
    return changed;
  }

  /**
   * Names SLF4J's one logging provider from the index (system property {@code slf4j.provider}), unless the command
   * line named one: SLF4J otherwise finds it with the JDK's loader, which opens every jar, the first time anything
   * logs. Only when the class path registers exactly one, so SLF4J takes the provider it would have found; its
   * notice that it took a named provider is kept off (its warnings and errors stay on) unless the command line set
   * its verbosity.
   */
  static void nameLoggingProvider() {
    forThisJvm().ifPresent(index -> System.getProperties().putAll(loggingProperties(index, System.getProperties())));
  }

  /** The system properties {@link #nameLoggingProvider} sets, given the index and the properties already set. */
  static Map<String, String> loggingProperties(ServicesIndex index, java.util.Properties set) {
    if (!set.getProperty("slf4j.provider", "").isEmpty()) return Map.of();
    List<String> providers = index.providers("org.slf4j.spi.SLF4JServiceProvider");
    if (providers.size() != 1) return Map.of();
    Map<String, String> props = new LinkedHashMap<>();
    props.put("slf4j.provider", providers.get(0));
    if (set.getProperty("slf4j.internal.verbosity") == null) props.put("slf4j.internal.verbosity", "WARN");
    return props;
  }

  /** The provider class names registered for {@code service}, in the JDK's order. */
  List<String> providers(String service) {
    LinkedHashSet<String> names = new LinkedHashSet<>();
    for (Path entry : classPath) names.addAll(byEntry.getOrDefault(entry, Map.of()).getOrDefault(service, List.of()));
    return List.copyOf(names);
  }

  /** The recorded jars by path; empty when the file is missing, unreadable or not an index of this version. */
  private static Map<String, Jar> read(Path file) {
    List<String> lines;
    try {
      lines = Files.readAllLines(file, StandardCharsets.UTF_8);
    } catch (IOException | RuntimeException e) {
      return Map.of();   // missing or unreadable: every jar read again
    }
    Map<String, Jar> jars = new LinkedHashMap<>();
    if (lines.isEmpty() || !lines.get(0).equals(MAGIC)) return jars;
    Jar current = null;
    try {
      for (String line : lines.subList(1, lines.size())) {
        if (line.startsWith("jar\t")) {
          String[] f = line.split("\t", 4);
          current = new Jar(f[3], Long.parseLong(f[1]), Long.parseLong(f[2]),
              new Contents(new LinkedHashMap<>(), new ArrayList<>()));
          jars.put(current.path(), current);
        } else if (line.startsWith("svc\t") && current != null) {
          String[] f = line.split("\t", 3);
          current.services().computeIfAbsent(f[1], k -> new ArrayList<>()).add(f[2]);
        } else if (line.startsWith("cp\t") && current != null) {
          current.classPath().add(line.substring(3));
        } else {
          return Map.of();   // not written by this class: read every jar again
        }
      }
    } catch (RuntimeException e) {
      return Map.of();
    }
    return jars;
  }

  private static void write(Path file, List<Jar> jars) {
    StringBuilder sb = new StringBuilder(MAGIC).append('\n');
    for (Jar j : jars) {
      if (j.path().indexOf('\n') >= 0) return;   // a path no line can hold: leave the file as it is
      sb.append("jar\t").append(j.size()).append('\t').append(j.modifiedNanos()).append('\t').append(j.path())
          .append('\n');
      j.services().forEach((svc, providers) -> {
        for (String p : providers) sb.append("svc\t").append(svc).append('\t').append(p).append('\n');
      });
      for (String named : j.classPath()) {
        if (named.indexOf('\n') >= 0) return;
        sb.append("cp\t").append(named).append('\n');
      }
    }
    try {
      AtomicFiles.writeString(file, sb.toString());
    } catch (IOException | RuntimeException e) {
      // a cache: the next run reads the jars directly again
    }
  }

  /**
   * Every registration in a jar, and the jars its manifest's {@code Class-Path} names that are files (relative to
   * the jar's folder); nothing when it cannot be read (the JDK skips such an entry too).
   */
  static Contents inJar(Path jar) {
    Map<String, List<String>> services = new LinkedHashMap<>();
    List<String> named = new ArrayList<>();
    try (JarFile z = new JarFile(jar.toFile(), false)) {
      Manifest m = z.getManifest();
      String cp = m == null ? null : m.getMainAttributes().getValue(Attributes.Name.CLASS_PATH);
      if (cp != null) {
        for (String u : cp.strip().split("\\s+")) {
          if (u.isEmpty() || u.contains(":")) continue;   // a URL of another scheme, not a file beside the jar
          try {
            Path p = jar.toAbsolutePath().getParent().resolve(java.net.URLDecoder.decode(u, StandardCharsets.UTF_8))
                .normalize();
            if (Files.isRegularFile(p) || Files.isDirectory(p)) named.add(p.toString());
          } catch (RuntimeException e) {
            // a name no path can hold: the JDK would not find it either
          }
        }
      }
      var entries = z.entries();
      while (entries.hasMoreElements()) {
        ZipEntry e = entries.nextElement();
        String name = e.getName();
        if (e.isDirectory() || !name.startsWith(PREFIX) || name.indexOf('/', PREFIX.length()) >= 0
            || name.length() == PREFIX.length()) {
          continue;
        }
        try (InputStream in = z.getInputStream(e)) {
          List<String> providers = parse(in);
          if (!providers.isEmpty()) services.put(name.substring(PREFIX.length()), providers);
        }
      }
    } catch (IOException e) {
      return new Contents(Map.of(), List.of());
    }
    return new Contents(services, named);
  }

  /** Every registration in a class-path folder. */
  static Map<String, List<String>> inFolder(Path folder) {
    Map<String, List<String>> services = new LinkedHashMap<>();
    Path dir = folder.resolve(PREFIX);
    if (!Files.isDirectory(dir)) return services;
    try (Stream<Path> files = Files.list(dir)) {
      for (Path f : files.sorted().toList()) {
        if (!Files.isRegularFile(f)) continue;
        try (InputStream in = Files.newInputStream(f)) {
          List<String> providers = parse(in);
          if (!providers.isEmpty()) services.put(f.getFileName().toString(), providers);
        }
      }
    } catch (IOException e) {
      return Map.of();
    }
    return services;
  }

  /** A registration file's class names as the JDK reads them: a {@code #} starts a comment, blanks are trimmed. */
  static List<String> parse(InputStream in) throws IOException {
    LinkedHashSet<String> names = new LinkedHashSet<>();
    BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
    for (String line; (line = r.readLine()) != null; ) {
      int hash = line.indexOf('#');
      if (hash >= 0) line = line.substring(0, hash);
      line = line.strip();
      if (!line.isEmpty() && line.indexOf('\t') < 0) names.add(line);
    }
    return List.copyOf(names);
  }
}
