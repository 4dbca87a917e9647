package dev.h2beam.pipelines;

import dev.h2beam.adapters.files.Json;
import dev.h2beam.transforms.sweep.SweepContext;
import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.CodeSource;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Enumeration;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Stream;
import java.util.zip.CRC32;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import org.apache.beam.runners.flink.FlinkPipelineOptions;
import org.apache.beam.sdk.options.PipelineOptions;

/**
 * Checks, before any pipeline is built, that the jars given in {@code --filesToStage} to a remote Flink cluster hold
 * the h2beam this client runs. The workers run the staged jar's classes on objects this client serialised: a jar
 * built before the client's sources changed (the launcher rebuilds its own classes when sources change, not the
 * cluster jar, which {@code mvn package} makes) ran old code on the workers without a word, or failed there with a
 * class mismatch, after the job was submitted. Every h2beam class the client has must have, in a staged jar that holds
 * it, the size and CRC-32 the client's copy has (as the jars' directories record them); a class only the staged jar
 * has (a plug-in the workers load by name) is not compared.
 */
final class StagedJars {
  /** Where h2beam's classes live in a jar; only these are compared. */
  private static final String OWN = "dev/h2beam/";
  /** At most this many differing classes are named. */
  private static final int NAMED = 3;
  /** One class of each module every worker runs; a staged set without one of them cannot run a job. */
  private static final List<Class<?>> MODULES = List.of(Json.class, SweepContext.class, Main.class);
  /** The {@link #MODULES}' class files. */
  static final List<String> CORE = MODULES.stream().map(c -> c.getName().replace('.', '/') + ".class").toList();

  private StagedJars() {}

  /** Refuses staged jars whose h2beam differs from the client's, when a remote Flink cluster will run them. */
  static void requireCurrent(PipelineOptions o) {
    if (FlinkMaster.remote(o) == null) return; // the DirectRunner and an embedded Flink run this process's classes
    List<String> files = o.as(FlinkPipelineOptions.class).getFilesToStage();
    if (files != null) requireCurrent(files, StagedJars.class.getClassLoader());
  }

  /**
   * Refuses the first of {@code files} that is missing, unreadable, or holds h2beam classes unlike {@code client}'s;
   * then, for h2beam's own class loader, files that together lack one of the {@link #CORE} classes every worker runs.
   */
  static void requireCurrent(List<String> files, ClassLoader client) {
    ClientClasses own = null;
    Set<String> lacking = new TreeSet<>(client == StagedJars.class.getClassLoader() ? CORE : List.of());
    try {
      for (String name : files) {
        Path file = Path.of(name);
        if (Files.isDirectory(file)) { // Beam zips a staged folder; a folder of classes is the build's own
          lacking.removeIf(c -> Files.isRegularFile(file.resolve(c)));
          continue;
        }
        if (!Files.isRegularFile(file)) {
          throw new UsageError("--filesToStage: " + name + " does not exist; give the cluster jar's path"
              + " (demo/target/h2beam-demo-<version>-cluster.jar, made by mvn -B -ntp -DskipTests package)");
        }
        if (own == null) own = new ClientClasses(client);
        List<String> differing = new ArrayList<>();
        int compared = 0;
        try (ZipFile jar = new ZipFile(file.toFile())) {
          lacking.removeIf(c -> jar.getEntry(c) != null);
          if (own.runsFrom(file)) continue; // the client's own jar
          for (Map.Entry<String, long[]> c : own.classes().entrySet()) {
            ZipEntry entry = jar.getEntry(c.getKey());
            if (entry == null) continue;
            compared++;
            if (c.getValue()[0] != entry.getSize() || c.getValue()[1] != entry.getCrc()) differing.add(c.getKey());
          }
        } catch (IOException e) {
          throw new UsageError("--filesToStage: " + name + " cannot be read as a jar (" + e.getMessage() + "); give"
              + " the cluster jar's path (demo/target/h2beam-demo-<version>-cluster.jar)");
        }
        if (!differing.isEmpty()) {
          throw new UsageError("--filesToStage: " + name + " holds another h2beam than this client runs: "
              + differing.size() + " of its " + compared + " h2beam classes differ (" + named(differing) + "), so"
              + " the cluster would run other code than this client built the job with. Rebuild the jar from these"
              + " sources (mvn -B -ntp -DskipTests package), or run the client from the jar itself"
              + " (java -cp <jar>:<Flink's classpath> dev.h2beam.pipelines.Main ...)");
        }
      }
    } catch (IOException e) {
      throw new UsageError("--filesToStage: this client's own h2beam classes cannot be read (" + e.getMessage()
          + ")");
    }
    if (!lacking.isEmpty()) {
      throw new UsageError("--filesToStage=" + String.join(",", files) + ": the staged files lack h2beam's "
          + named(lacking)
          + ", which every worker runs; stage the cluster jar (demo/target/h2beam-demo-<version>-cluster.jar, made"
          + " by mvn -B -ntp -DskipTests package): the thin demo jar beside it holds the demo's own classes only");
    }
  }

  /** The first {@link #NAMED} class files of {@code classes} as class names, in order. */
  private static String named(Collection<String> classes) {
    List<String> shown = classes.stream().sorted().limit(NAMED)
        .map(c -> c.substring(0, c.length() - ".class".length()).replace('/', '.')).toList();
    return String.join(", ", shown) + (classes.size() > NAMED ? ", ..." : "");
  }

  /**
   * The size and CRC-32 of every h2beam class the client loads, read from the directories of the jars it loads them
   * from (as the staged side is read), or from the bytes of a folder's class files; the first on the class path wins,
   * as for the class loader. Reading the staged jar's 560 classes and the client's copies, each looked up through the
   * class loader, took 0.19-0.32 s of a cold client; this takes 0.02-0.12 s (BENCHMARKS.md, issue 11).
   */
  private static final class ClientClasses {
    /** Where the client's h2beam classes are, in class-path order. */
    private final Set<Path> roots = new LinkedHashSet<>();
    /** Read on first need: a client staging only its own jar (the README's) compares nothing. */
    private Map<String, long[]> classes;

    ClientClasses(ClassLoader loader) throws IOException {
      // every class-path entry with a dev/h2beam/ folder, in class-path order, then the modules of the classes
      // named here, for jars written without folder entries
      for (Enumeration<URL> e = loader.getResources(OWN); e.hasMoreElements(); ) {
        String u = e.nextElement().toString();
        int bang = u.indexOf("!/");
        if (u.startsWith("jar:file:") && bang > 0) {
          roots.add(Path.of(URI.create(u.substring("jar:".length(), bang))).toRealPath());
        } else if (u.startsWith("file:")) {
          roots.add(Path.of(URI.create(u)).getParent().getParent().toRealPath()); // <root>/dev/h2beam/
        }
      }
      for (Class<?> anchor : MODULES) {
        if (anchor.getClassLoader() != loader) continue;
        CodeSource source = anchor.getProtectionDomain().getCodeSource();
        if (source != null && source.getLocation() != null && "file".equals(source.getLocation().getProtocol())) {
          try {
            roots.add(Path.of(source.getLocation().toURI()).toRealPath());
          } catch (URISyntaxException e) {
            // not a path: only what the class path's folders show is compared
          }
        }
      }
    }

    /** Class file name to {size, crc}. */
    Map<String, long[]> classes() throws IOException {
      if (classes != null) return classes;
      classes = new TreeMap<>();
      for (Path root : roots) {
        if (Files.isDirectory(root)) {
          if (!Files.isDirectory(root.resolve(OWN))) continue;
          try (Stream<Path> walk = Files.walk(root.resolve(OWN))) {
            for (Path f : walk.filter(f -> f.toString().endsWith(".class")).toList()) {
              byte[] bytes = Files.readAllBytes(f);
              CRC32 crc = new CRC32();
              crc.update(bytes);
              classes.putIfAbsent(root.relativize(f).toString().replace('\\', '/'),
                  new long[] {bytes.length, crc.getValue()});
            }
          }
        } else if (Files.isRegularFile(root)) {
          try (ZipFile jar = new ZipFile(root.toFile())) {
            for (Enumeration<? extends ZipEntry> e = jar.entries(); e.hasMoreElements(); ) {
              ZipEntry entry = e.nextElement();
              if (entry.getName().startsWith(OWN) && entry.getName().endsWith(".class")) {
                classes.putIfAbsent(entry.getName(), new long[] {entry.getSize(), entry.getCrc()});
              }
            }
          }
        }
      }
      return classes;
    }

    /** Whether {@code jar} is one the client loads its h2beam classes from (then it holds them as they are). */
    boolean runsFrom(Path jar) throws IOException {
      return roots.contains(jar.toRealPath());
    }
  }
}
