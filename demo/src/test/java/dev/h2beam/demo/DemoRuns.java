package dev.h2beam.demo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.h2beam.adapters.files.Json;
import dev.h2beam.transforms.summary.SummaryFile;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

/** Runs the demo command in a test folder and reads what it wrote. Public for the cluster test's package. */
public final class DemoRuns {
  /**
   * The JVM options ./h2beam starts every command with (the client compiler alone, the serial collector, a fixed
   * number of compiler threads), so that a test running h2beam in a JVM of its own runs it as users do.
   */
  static final List<String> LAUNCHER_JVM = List.of("-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC",
      "-XX:-UseDynamicNumberOfCompilerThreads");

  private static Path clean; // guarded by DemoRuns.class
  private static Map<String, String> cleanFiles; // guarded by DemoRuns.class

  private DemoRuns() {}

  /** The command that starts a JVM of its own for h2beam: this JDK's java with the launcher's options. */
  public static List<String> java() {
    List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
    cmd.addAll(LAUNCHER_JVM);
    return cmd;
  }

  /**
   * The output of the default demo ({@code h2beam demo} with no option), run once per test JVM for whichever test asks
   * first and shared by the tests that only compare with a clean run. Read-only: a test that changes a demo's files
   * runs its own. Every call checks that no file was written or removed since the run.
   */
  static synchronized Path cleanDemo() throws Exception {
    if (clean == null) {
      Path out = Files.createTempDirectory("h2beam-clean-demo");
      Runtime.getRuntime().addShutdownHook(new Thread(() -> delete(out)));
      assertEquals(0, demo(out), "the shared clean demo");
      cleanFiles = stamps(out);
      clean = out;
    }
    assertEquals(cleanFiles, stamps(clean), "a test changed the shared clean demo in " + clean);
    return clean;
  }

  /**
   * Every regular file under {@code root}, by relative path, with its size and modification time; not the progress
   * boards, which this JVM's board writer may rewrite after the run (they count the process's endpoint calls), and
   * which no test compares.
   */
  private static Map<String, String> stamps(Path root) throws IOException {
    Map<String, String> out = new TreeMap<>();
    try (Stream<Path> s = Files.walk(root)) {
      for (Path p : s.filter(Files::isRegularFile).toList()) {
        String rel = root.relativize(p).toString();
        if (rel.startsWith("runs/_audit/") && rel.contains("/progress/")) continue;
        out.put(rel, Files.size(p) + " " + Files.getLastModifiedTime(p));
      }
    }
    assertTrue(out.size() > 10, "the clean demo wrote " + out.keySet());
    return out;
  }

  private static void delete(Path root) {
    try (Stream<Path> s = Files.walk(root)) {
      for (Path p : s.sorted(Comparator.reverseOrder()).toList()) Files.deleteIfExists(p);
    } catch (IOException e) {
      // a temporary folder left behind
    }
  }

  /** Runs {@code h2beam demo} with these options into {@code out}; returns the exit code. */
  static int demo(Path out, String... options) throws Exception {
    List<String> args = new ArrayList<>(List.of("--output=" + out, "--sessionRetryWaitSeconds=0"));
    args.addAll(List.of(options));
    return new DemoCommand().run(args.toArray(new String[0]));
  }

  static Map<String, Object> demoJson(Path out) throws IOException {
    return Json.readMap(out.resolve("demo.json"));
  }

  static Map<String, Object> summary(Path out, int k, String task) throws IOException {
    return SummaryFile.read(out.resolve("runs").resolve("demo-oc-agg" + k).resolve(task).resolve("summary.json"));
  }

  @SuppressWarnings("unchecked")
  static Map<String, Object> at(Map<String, Object> m, String... keys) {
    Object cur = m;
    for (String key : keys) cur = ((Map<String, Object>) cur).get(key);
    return (Map<String, Object>) cur;
  }

  @SuppressWarnings("unchecked")
  static List<String> statuses(Map<String, Object> demoJson) {
    List<String> out = new ArrayList<>();
    for (Object t : (List<Object>) demoJson.get("tasks")) out.add(String.valueOf(((Map<String, Object>) t).get("status")));
    return out;
  }

  static int count(Map<String, Object> demoJson, String key) {
    return ((Number) demoJson.get(key)).intValue();
  }

  static String read(Path p) throws IOException {
    return Files.readString(p);
  }

  static void assertStatuses(Map<String, Object> demoJson, String... expected) {
    assertEquals(List.of(expected), statuses(demoJson));
  }
}
