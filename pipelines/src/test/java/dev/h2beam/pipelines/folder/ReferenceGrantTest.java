package dev.h2beam.pipelines.folder;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.h2beam.adapters.files.Json;
import dev.h2beam.adapters.llm.ScriptedModelServer;
import dev.h2beam.pipelines.UsageError;
import dev.h2beam.pipelines.report.ReportCommand;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Reference egress grants (seed document 001) on the worked example: the rubric judge sends each task's rubric to its
 * model only under a grant naming the benchmark, the endpoint and the pinned judge model. A missing, an altered and a
 * superfluous grant are each refused before anything is sent or written: the judge's own scripted server, started
 * fresh for each test, records no request at all and the runs folder is byte for byte as the sweep left it. With the
 * grant the judge grades as before, and its replies stay out of the released report.
 */
class ReferenceGrantTest {
  static final String GRANT = "{benchmark: signed_sums, endpoint: local, model: \"judge-model\","
      + " references: \"grading/rubric.json\"}";
  static final String ENTRY = "{benchmark: \"signed_sums\", endpoint: \"local\", model: \"judge-model\","
      + " references: \"grading/rubric.json\"}";

  @TempDir static Path swept;
  static Path runs;
  static Path ns;
  ScriptedModelServer judgeServer;

  @BeforeAll
  static void sweepOnce() throws Exception {
    try (ScriptedModelServer server = ScriptedModelServer.start(new SignedSumsModel())) {
      runs = swept.resolve("runs");
      FolderSweepTest.sweepAt(runs, FolderSweepTest.config(swept, server.baseUrl()), 1, "parallel");
    }
    ns = runs.resolve("signed_sums-oc-agg1");
  }

  @BeforeEach
  void startJudge() throws Exception {
    judgeServer = ScriptedModelServer.start(new SignedSumsModel());
  }

  @AfterEach
  void stopJudge() {
    judgeServer.close();
  }

  /** A judge configuration: the judge role on the fresh server's {@code local}, a second endpoint, and {@code grants}. */
  Path judgeConfig(Path dir, String grants) throws Exception {
    Path f = dir.resolve("judge.yaml");
    Files.writeString(f, "endpoints:\n"
        + "  local: {base_url: \"" + judgeServer.baseUrl() + "\"}\n"
        + "  other: {base_url: \"http://127.0.0.1:9/v1\"}\n"
        + "roles:\n"
        + "  judge: {endpoint: local, model: \"judge-model\"}\n" + grants);
    return f;
  }

  /** Runs a judge that must be refused; proves nothing reached the judge's model and nothing under runs/ changed. */
  String refused(String... args) throws Exception {
    TreeMap<String, String> before = snapshot(runs);
    UsageError e = assertThrows(UsageError.class, () -> FolderSweepTest.judge(ns, args));
    assertEquals(List.of(), judgeServer.requests(), "a refused judge sent a request");
    assertEquals(List.of(), changed(before, snapshot(runs)), "a refused judge wrote under the runs folder");
    assertTrue(e.getMessage().startsWith("reference egress refused; nothing was sent and nothing written"),
        e.getMessage());
    return e.getMessage();
  }

  /** The refusal of the rubric judge under the one grant {@link #GRANT} with {@code from} replaced by {@code to}. */
  String refusedWithGrant(Path tmp, String from, String to) throws Exception {
    return refused("--grader=rubric", "--config=" + judgeConfig(tmp, "grants:\n  - " + GRANT.replace(from, to)
        + "\n"));
  }

  @Test
  void aRubricJudgeWithoutAGrantIsRefusedNamingTheEntryToAdd(@TempDir Path tmp) throws Exception {
    String why = refused("--grader=rubric", "--config=" + judgeConfig(tmp, ""));
    assertTrue(why.contains("grants no reference egress for signed_sums"), why);
    assertTrue(why.contains("add this entry to its grants: list: " + ENTRY), why);
  }

  @Test
  void aGrantForAnotherBenchmarkDoesNotCoverThisOne(@TempDir Path tmp) throws Exception {
    String why = refusedWithGrant(tmp, "signed_sums", "other_sums");
    assertTrue(why.contains("grants no reference egress for signed_sums"), why);
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource({"endpoint, local, other", "model, judge-model, judge-model-v2"})
  void anAlteredGrantIsRefusedNamingTheFieldThatDiffers(String field, String judge, String granted, @TempDir Path tmp)
      throws Exception {
    String why = refusedWithGrant(tmp, field + ": " + (field.equals("model") ? "\"" + judge + "\"" : judge),
        field + ": " + (field.equals("model") ? "\"" + granted + "\"" : granted));
    assertTrue(why.contains("grants[0] (benchmark signed_sums) does not match the judge: " + field + " is \""
        + granted + "\" in the grant but \"" + judge + "\" for the judge; if the references may go there, make the"
        + " grant read " + ENTRY), why);
    String other = field.equals("model") ? "endpoint" : "model";
    assertFalse(why.contains(other + " is"), why);
  }

  @Test
  void aGrantForAJudgeThatSendsNoReferenceIsRefused(@TempDir Path tmp) throws Exception {
    // the example's own grader (expected) compares files and sends nothing to a model
    String why = refused("--config=" + judgeConfig(tmp, "grants:\n  - " + GRANT + "\n"));
    assertTrue(why.contains("grants[0] (benchmark signed_sums) grants reference egress, but its judge here"
        + " (--grader=expected) sends no reference to any model, so the grant permits nothing; remove it"), why);
  }

  @Test
  void aGrantForABenchmarkNotJudgedHereIsLeftAlone(@TempDir Path tmp) throws Exception {
    Path copy = copyOfRuns(tmp);
    String out = FolderSweepTest.judge(copy.resolve(ns.getFileName()), "--config=" + judgeConfig(tmp, "grants:\n  - "
        + GRANT.replace("signed_sums", "other_sums") + "\n"));
    assertTrue(out.contains("4 graded"), out);
    assertEquals(List.of(), judgeServer.requests());
  }

  @Test
  void aMatchingGrantGradesAsBeforeAndTheRepliesStayOutOfTheReleasedReport(@TempDir Path tmp) throws Exception {
    Path copy = copyOfRuns(tmp).resolve(ns.getFileName());
    String out = FolderSweepTest.judge(copy, "--grader=rubric",
        "--config=" + judgeConfig(tmp, "grants:\n  - " + GRANT + "\n"));
    assertTrue(out.contains("4 graded"), out);
    // the rubrics went to the granted model, and only there
    assertFalse(judgeServer.requests().isEmpty());
    for (ScriptedModelServer.Request r : judgeServer.requests()) {
      assertEquals("judge-model", r.body().path("model").asText());
      assertTrue(r.lastMessage("user").contains("The amount is"), "the rubric is in the request");
    }
    JsonNode rows = Json.readTree(copy.resolve("judged.json"));
    assertEquals(4, rows.size());
    for (JsonNode r : rows) {
      assertEquals(3.0, r.path("n_passed").asDouble(), r.toString());
      // the judge's reply (its verdicts and reasons) is kept in the judge's own record...
      assertEquals("checked against the work", r.at("/raw/criteria/0/reason").asText(), r.toString());
    }

    // ...and stays out of the released report; the per-task scores go to the restricted file only
    Path report = tmp.resolve("report");
    ByteArrayOutputStream console = new ByteArrayOutputStream();
    int code = new ReportCommand().run(new String[] {"--namespaces=" + copy, "--output=" + report},
        new PrintStream(console, true, StandardCharsets.UTF_8), new PrintStream(new ByteArrayOutputStream()));
    assertEquals(0, code, console.toString(StandardCharsets.UTF_8));
    Map<String, String> released = new TreeMap<>(Map.of(
        "console", console.toString(StandardCharsets.UTF_8),
        "report.txt", Files.readString(report.resolve("report.txt")),
        "report.html", Files.readString(report.resolve("report.html")),
        "report.json", Files.readString(report.resolve("report.json"))));
    for (Map.Entry<String, String> f : released.entrySet()) {
      for (String leak : List.of("checked against the work", "The amount is", "judge_model", "\"criteria\"",
          "ledgers/march", "inventory/bolts")) {
        assertFalse(f.getValue().contains(leak), f.getKey() + " releases " + leak);
      }
    }
    JsonNode restricted = Json.readTree(report.resolve("report-restricted.json"));
    assertEquals(4, restricted.path("per_task").size(), restricted.toString());
    for (JsonNode r : restricted.path("per_task")) {
      assertTrue(r.path("graded").asBoolean(), r.toString());
      assertEquals(3, r.path("n_passed").asInt(), r.toString());
    }
  }

  /** A copy of the swept runs folder for a test that writes: the summaries name run dirs in the original. */
  static Path copyOfRuns(Path tmp) throws Exception {
    Path to = tmp.resolve("runs");
    try (Stream<Path> s = Files.walk(runs)) {
      for (Path p : s.toList()) {
        Path dest = to.resolve(runs.relativize(p).toString());
        if (Files.isDirectory(p)) {
          Files.createDirectories(dest);
        } else {
          Files.copy(p, dest);
        }
      }
    }
    return to;
  }

  /** The files that differ between two snapshots, each with what became of it (a whole tree would hide them). */
  static List<String> changed(TreeMap<String, String> before, TreeMap<String, String> after) {
    java.util.TreeSet<String> names = new java.util.TreeSet<>(before.keySet());
    names.addAll(after.keySet());
    return names.stream().filter(n -> !java.util.Objects.equals(before.get(n), after.get(n)))
        .map(n -> n + (!after.containsKey(n) ? " removed" : !before.containsKey(n) ? " added" : " changed:\n"
            + before.get(n) + "\n-> became:\n" + after.get(n)))
        .toList();
  }

  /** Every file under {@code root}: relative path to content. */
  static TreeMap<String, String> snapshot(Path root) throws Exception {
    TreeMap<String, String> out = new TreeMap<>();
    try (Stream<Path> s = Files.walk(root)) {
      for (Path p : s.filter(Files::isRegularFile).toList()) {
        out.put(root.relativize(p).toString(), new String(Files.readAllBytes(p), StandardCharsets.ISO_8859_1));
      }
    }
    return out;
  }
}
