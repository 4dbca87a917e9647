package dev.h2beam.examples.gated;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.h2beam.adapters.files.Json;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarFile;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The plug-in as a user runs it: a real JVM whose classpath is h2beam (this test's classpath without anything of this
 * module) plus the jar {@code mvn package} built, running {@code h2beam demo --modes=gated --method=sign-rule}; and
 * the same JVM without the jar, which refuses the name.
 */
class PluginJarIT {
  static final Path TARGET = Path.of("target").toAbsolutePath().normalize();

  /** The jar {@code package} built: the plug-in alone. */
  static Path pluginJar() throws Exception {
    try (Stream<Path> s = Files.list(TARGET)) {
      return s.filter(p -> p.getFileName().toString().matches("h2beam-example-gated-method-.*\\.jar"))
          .filter(p -> !p.getFileName().toString().matches(".*-(tests|sources|javadoc)\\.jar")).findFirst()
          .orElseThrow(() -> new AssertionError("no plug-in jar under " + TARGET + ": run mvn verify"));
    }
  }

  /**
   * h2beam's classpath: this test's, minus every entry under this module's {@code target/} (its classes, test
   * classes and jar), so the plug-in can only come from a jar the test adds.
   */
  static List<String> h2beamClasspath() {
    List<String> out = new ArrayList<>();
    for (String e : System.getProperty("java.class.path").split(File.pathSeparator)) {
      if (!e.isEmpty() && !Path.of(e).toAbsolutePath().normalize().startsWith(TARGET)) out.add(e);
    }
    return out;
  }

  /** Runs {@code h2beam demo} in its own JVM on {@code classpath}; returns the exit code, its output in console.log. */
  static int demo(Path out, List<String> classpath, String... options) throws Exception {
    return demo(out, List.of(), classpath, options);
  }

  /** The same with options for the JVM. */
  static int demo(Path out, List<String> jvm, List<String> classpath, String... options) throws Exception {
    List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC"));
    cmd.addAll(jvm);
    cmd.addAll(List.of("-cp", String.join(File.pathSeparator, classpath), "dev.h2beam.pipelines.Main", "demo",
        "--output=" + out.resolve("demo")));
    cmd.addAll(Arrays.asList(options));
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(out.resolve("console.log").toFile())
        .start();
    if (!p.waitFor(10, TimeUnit.MINUTES)) {
      p.descendants().forEach(ProcessHandle::destroyForcibly);
      p.destroyForcibly().waitFor();
      throw new AssertionError("the demo ran past 10 minutes: " + Files.readString(out.resolve("console.log")));
    }
    return p.exitValue();
  }

  @Test
  void theJarHoldsOnlyThePlugin() throws Exception {
    try (JarFile jar = new JarFile(pluginJar().toFile())) {
      List<String> classes = jar.stream().map(e -> e.getName()).filter(n -> n.endsWith(".class")).toList();
      assertFalse(classes.isEmpty());
      for (String c : classes) assertTrue(c.startsWith("dev/h2beam/examples/gated/"), c);
      assertEquals(SignRuleMethod.class.getName(), new String(jar.getInputStream(
          jar.getEntry("META-INF/services/dev.h2beam.transforms.gated.GatedMethod")).readAllBytes()).strip());
    }
  }

  @Test
  void theDemoRunsTheMethodFromItsJar(@TempDir Path out) throws Exception {
    List<String> classpath = new ArrayList<>(h2beamClasspath());
    classpath.add(pluginJar().toString());
    int code = demo(out, classpath, "--modes=gated", "--method=" + SignRuleMethod.NAME);
    String console = Files.readString(out.resolve("console.log"));
    assertEquals(0, code, console);
    for (String task : List.of("ledger-1", "ledger-2")) {
      Path dir = out.resolve("demo/runs/demo-oc-agg2").resolve(task);
      Map<String, Object> gat = at(Json.readMap(dir.resolve("summary.json")), "modes", "gat");
      Map<String, Object> gate = at(gat, "gate");
      assertEquals(SignRuleMethod.NAME, gate.get("method"), task);
      // the budget of the other modes at k = 2, R = 4k and P = 3k, though this method never opened a session
      Map<String, Object> ledger = at(gat, "ledger");
      assertEquals(8, ledger.get("R"), task + " " + ledger);
      assertEquals(6, ledger.get("P"), task + " " + ledger);
      assertEquals(List.of("base1", "base2", "g1", "g2", "r3", "r4", "r5", "r6"), ledger.get("rollouts"), task);

      @SuppressWarnings("unchecked")
      List<Map<String, Object>> steps = (List<Map<String, Object>>) gate.get("steps");
      assertEquals(6, steps.size(), task);
      // step 1: the rule alone; the script still drops credits, so the checks score it 0 like the bases: refused
      assertEquals(List.of(Map.of("op", "update", "path", "guardrails.md")), steps.get(0).get("mutations"), task);
      assertEquals("reject", at(steps.get(0), "decision").get("outcome"), task);
      // step 2: it read the refusal and fixed the script, which the checks pass: kept
      assertEquals(List.of(Map.of("op", "update", "path", "scripts/summarize.sh")), steps.get(1).get("mutations"),
          task);
      assertEquals("select", at(steps.get(1), "decision").get("outcome"), task);
      // steps 3 to 6: every sample passed, so it proposed nothing and each rollout re-rolled the kept harness
      for (Map<String, Object> step : steps.subList(2, 6)) {
        assertEquals("none", step.get("proposal"), task + " " + step);
        assertEquals("every recent sample passed its checks", step.get("notes"), task + " " + step);
      }
      assertEquals("g2", gate.get("final_harness"), task);
      Path kept = harness(out.resolve("demo/runs"), task, "g2");
      String script = Files.readString(kept.resolve(SignRuleMethod.SCRIPT));
      assertFalse(script.contains(SignRuleMethod.POSITIVE_ONLY), script);
      assertTrue(script.contains("total += amount"), script);
    }
    // which code the method is: the jar's, digested; the policy h2beam's own
    Path config = out.resolve("demo/runs/demo-oc-agg2/config.json");
    Map<String, Object> gateCode = at(Json.readMap(config), "gate_code");
    Map<String, Object> method = at(gateCode, "method");
    assertEquals(SignRuleMethod.class.getName(), method.get("class"));
    assertEquals(pluginJar().getFileName().toString(), method.get("from"));
    assertTrue(String.valueOf(method.get("code")).matches("sha256:[0-9a-f]{64}"), method.toString());
    assertEquals("h2beam", at(gateCode, "policy").get("code"), gateCode.toString());

    // dogY #1: the same name from a changed jar would mix two versions' results in one namespace: refused, naming
    // both, and nothing is written
    Path changed = out.resolve("changed/" + pluginJar().getFileName());
    Files.createDirectories(changed.getParent());
    try (JarFile in = new JarFile(pluginJar().toFile());
        java.util.jar.JarOutputStream z = new java.util.jar.JarOutputStream(Files.newOutputStream(changed))) {
      for (java.util.jar.JarEntry e : java.util.Collections.list(in.entries())) {
        z.putNextEntry(new java.util.jar.JarEntry(e.getName()));
        z.write(in.getInputStream(e).readAllBytes());
      }
      z.putNextEntry(new java.util.jar.JarEntry("dev/h2beam/examples/gated/tuning.properties"));
      z.write("threshold=2\n".getBytes(java.nio.charset.StandardCharsets.UTF_8));
    }
    String before = Files.readString(config);
    List<String> other = new ArrayList<>(h2beamClasspath());
    other.add(changed.toString());
    Files.move(out.resolve("console.log"), out.resolve("first.log"));
    assertEquals(1, demo(out, other, "--modes=gated", "--method=" + SignRuleMethod.NAME));
    String refused = Files.readString(out.resolve("console.log"));
    assertTrue(refused.contains("the method was " + SignRuleMethod.class.getName() + " (" + method.get("code")
        + " from " + method.get("from") + ") when this run began, now " + SignRuleMethod.class.getName() + " (sha256:"),
        refused);
    assertTrue(refused.contains("A resume would mix two versions' results in one namespace: put the earlier jar back"),
        refused);
    assertEquals(before, Files.readString(config));

    // a namespace from before the record gets it on its next gated run, unverified since gated results are there
    Map<String, Object> older = Json.readMap(config);
    older.remove("gate_code");
    Files.writeString(config, Json.pretty(older) + "\n");
    Files.move(out.resolve("console.log"), out.resolve("refused.log"));
    assertEquals(0, demo(out, classpath, "--modes=gated", "--method=" + SignRuleMethod.NAME));
    String resumed = Files.readString(out.resolve("console.log"));
    assertTrue(resumed.contains("predates gate_code (which code the gated method and policy are), recorded now"),
        resumed);
    Map<String, Object> recorded = Json.readMap(config);
    assertEquals(gateCode, recorded.get("gate_code"));
    assertTrue(String.valueOf(recorded.get("unverified")).contains("gate_code"), recorded.toString());
  }

  @Test
  void withoutTheJarTheNameIsRefused(@TempDir Path out) throws Exception {
    int code = demo(out, h2beamClasspath(), "--modes=gated", "--method=" + SignRuleMethod.NAME);
    String console = Files.readString(out.resolve("console.log"));
    assertEquals(1, code, console);
    assertTrue(console.contains("--method=sign-rule is not a known gated method; known: [improver]"), console);
    assertFalse(Files.exists(out.resolve("demo/runs/demo-oc-agg2")), "refused before anything ran");
  }

  @Test
  void theLaunchersServicesIndexFindsAPlugInItDidNotRecord(@TempDir Path out) throws Exception {
    // the launcher's cache of what each jar registers (./h2beam names it): written by a run without the plug-in
    Path index = out.resolve("services.idx");
    List<String> jvm = List.of("-Dh2beam.servicesIndex=" + index);
    Path without = Files.createDirectories(out.resolve("without"));
    assertEquals(1, demo(without, jvm, h2beamClasspath(), "--modes=gated", "--method=" + SignRuleMethod.NAME));
    String console = Files.readString(without.resolve("console.log"));
    assertTrue(console.contains("--method=sign-rule is not a known gated method; known: [improver]"), console);
    String recorded = Files.readString(index);
    assertTrue(recorded.contains("dev.h2beam.transforms.gated.GatedMethod"), "h2beam's own registrations");
    assertFalse(recorded.contains(SignRuleMethod.class.getName()), recorded);
    // then the plug-in jar added after h2beam's: read from the jar itself, and recorded for the next run
    Path with = Files.createDirectories(out.resolve("with"));
    List<String> classpath = new ArrayList<>(h2beamClasspath());
    classpath.add(pluginJar().toString());
    int code = demo(with, jvm, classpath, "--modes=gated", "--method=" + SignRuleMethod.NAME);
    assertEquals(0, code, Files.readString(with.resolve("console.log")));
    Map<String, Object> gat = at(Json.readMap(with.resolve("demo/runs/demo-oc-agg2/ledger-1/summary.json")),
        "modes", "gat");
    assertEquals(SignRuleMethod.NAME, at(gat, "gate").get("method"));
    assertTrue(Files.readString(index).contains(SignRuleMethod.class.getName()));
  }

  /** The folder holding the harness {@code label} of a task's gated mode (in the mode's own namespace). */
  static Path harness(Path runs, String task, String label) throws Exception {
    try (Stream<Path> s = Files.walk(runs)) {
      List<Path> found = s.filter(p -> p.endsWith(Path.of(task, "harnesses", label)) && Files.isDirectory(p))
          .toList();
      assertEquals(1, found.size(), task + "/harnesses/" + label + " under " + runs + ": " + found);
      return found.get(0);
    }
  }

  @SuppressWarnings("unchecked")
  static Map<String, Object> at(Map<String, Object> m, String... keys) {
    Object cur = m;
    for (String key : keys) cur = ((Map<String, Object>) cur).get(key);
    return (Map<String, Object>) cur;
  }
}
