package dev.h2beam.pipelines.folder;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.h2beam.adapters.files.Build;
import dev.h2beam.adapters.files.Hashes;
import dev.h2beam.adapters.files.Json;
import dev.h2beam.adapters.files.PathOrder;
import dev.h2beam.adapters.llm.ScriptedModelServer;
import dev.h2beam.pipelines.UsageError;
import dev.h2beam.pipelines.sweep.Sweep;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.io.TempDir;

/**
 * The run identity covers what the sweep's work reads from the benchmark and how the roles sample: after a finished
 * sweep of a copy of the worked example, editing a task's source file or task.md, a base harness file, or a role's
 * temperature makes the same command refuse, naming what changed, and write nothing; an unchanged re-run, or one
 * after a grading file changed (the sweep never reads those), resumes without running anything, and so does a
 * namespace whose config.json was written before these keys existed.
 */
class FolderInputsIdentityTest {
  private static ScriptedModelServer server;

  @TempDir Path tmp;
  private Path bench;
  private Path runs;
  private Path config;

  @BeforeAll
  static void start() throws Exception {
    server = ScriptedModelServer.start(new SignedSumsModel());
  }

  @AfterAll
  static void stop() {
    server.close();
  }

  /** A copy of the worked example, swept to its end once (one domain, k = 1, both modes). */
  @BeforeEach
  void sweepACopyOfTheExample() throws Exception {
    bench = tmp.resolve("bench");
    for (String rel : PathOrder.files(FolderSweepTest.EXAMPLE)) {
      if (rel.startsWith("runs/")) continue;
      Files.createDirectories(bench.resolve(rel).getParent());
      Files.copy(FolderSweepTest.EXAMPLE.resolve(rel), bench.resolve(rel));
    }
    runs = tmp.resolve("runs");
    config = FolderSweepTest.config(tmp, server.baseUrl());
    Map<String, Object> record = sweep();
    assertEquals(2, Sweep.doneFailed(record)[0], record.toString());
  }

  private Map<String, Object> sweep() throws Exception {
    return FolderSweepTest.sweepIn(bench, runs, config, 1, "both", "--onlyDomains=ledgers");
  }

  private Sweep.Plan plan() {
    return Sweep.plan(FolderSweepTest.optionsIn(bench, runs, config, 1, "both", "--onlyDomains=ledgers"),
        java.time.Instant.now());
  }

  private Path configJson() {
    return runs.resolve("signed_sums-oc-agg1/config.json");
  }

  /** Every file under the runs root with a digest of its bytes: what a refused run must leave as it was. */
  private Map<String, String> runsTree() throws IOException {
    Map<String, String> out = new TreeMap<>();
    for (String rel : PathOrder.files(runs)) out.put(rel, Hashes.sha1Hex(runs.resolve(rel)));
    return out;
  }

  /** The re-run resumed: every task of the stream skipped, no rollout or session run. */
  private void resumesDoingNothing() throws Exception {
    Map<String, String> executions = journals();
    Map<String, Object> record = sweep();
    assertEquals(2, Sweep.doneFailed(record)[0], record.toString());
    assertEquals(executions, journals(), "a resume of a finished sweep ran a rollout or a session");
  }

  private Map<String, String> journals() throws IOException {
    Map<String, String> out = new TreeMap<>();
    for (String j : new String[] {"executions.jsonl", "sessions.jsonl"}) {
      Path f = runs.resolve("_audit/signed_sums-oc-agg1").resolve(j);
      out.put(j, Files.exists(f) ? Files.readString(f) : "");
    }
    return out;
  }

  /** The same command is refused with a message holding each of {@code named}, and nothing is written. */
  private void refusedNaming(String... named) throws Exception {
    refusedNaming(this::sweep, named);
  }

  /** {@code sweep} is refused with a message holding each of {@code named}, and nothing is written. */
  private void refusedNaming(Executable sweep, String... named) throws Exception {
    Map<String, String> before = runsTree();
    UsageError e = assertThrows(UsageError.class, sweep);
    assertTrue(e.getMessage().contains(configJson() + " records a different run identity ("), e.getMessage());
    for (String n : named) assertTrue(e.getMessage().contains(n), "'" + n + "' not named in: " + e.getMessage());
    assertTrue(e.getMessage().contains("use a new --runsRoot"), e.getMessage());
    assertEquals(before, runsTree(), "a refused re-run wrote under the runs root");
  }

  @Test
  void anUnchangedReRunResumesWithoutRunningAnything() throws Exception {
    Map<String, Object> id = Json.readMap(configJson());
    assertTrue(id.get("input_digests") instanceof Map, id.toString());
    assertEquals(Map.of("temperature", 0.0, "max_tokens", 64),
        ((Map<?, ?>) id.get("role_settings")).get("executor"), id.toString());
    resumesDoingNothing();
  }

  @Test
  void anEditedSourceFileIsRefusedNamingItsTaskAndRestoringItResumes() throws Exception {
    Path csv = bench.resolve("tasks/ledgers/march/source/movements.csv");
    String was = Files.readString(csv);
    Files.writeString(csv, "9.99\n", StandardOpenOption.APPEND);
    refusedNaming("(input_digests)", "task ledgers/march", bench.resolve("tasks/ledgers/march/source").toString(),
        "restore the files");
    Files.writeString(csv, was);
    resumesDoingNothing();
  }

  @Test
  void anAddedSourceFileIsRefused() throws Exception {
    Files.writeString(bench.resolve("tasks/ledgers/april/source/notes.txt"), "a new input\n");
    refusedNaming("task ledgers/april");
  }

  @Test
  void anEditedTaskInstructionIsRefusedNamingItsTask() throws Exception {
    Path md = bench.resolve("tasks/ledgers/april/task.md");
    Files.writeString(md, Files.readString(md).replace("two decimals", "three decimals"));
    refusedNaming("task ledgers/april (its instruction");
  }

  @Test
  void anEditedBaseHarnessFileIsRefusedNamingTheBaseHarness() throws Exception {
    Path guardrails = bench.resolve("base/guardrails.md");
    Files.writeString(guardrails, "Never round.\n", StandardOpenOption.APPEND);
    refusedNaming("the base harness " + bench.resolve("base"));
  }

  @Test
  void editedPromptsInBenchJsonAreRefusedAndAnotherGraderIsNot() throws Exception {
    Path spec = bench.resolve("bench.json");
    String was = Files.readString(spec);
    Files.writeString(spec, was.replace("\"deliverable_word\": \"answer line\"", "\"deliverable_word\": \"total\""));
    refusedNaming("bench.json's prompts");
    Files.writeString(spec, was.replace("\"rubric.json\"]", "\"rubric.json\", \"notes*.txt\"]"));
    refusedNaming("leak_globs");
    Files.writeString(spec, was.replace("{\"kind\": \"expected\"}", "{\"kind\": \"rubric\"}"));
    resumesDoingNothing();
  }

  @Test
  void digestsRecordedBeforeThePromptsWereResumeAndRecordThem() throws Exception {
    Map<String, Object> id = Json.readMap(configJson());
    @SuppressWarnings("unchecked")
    Map<String, Object> digests = new LinkedHashMap<>((Map<String, Object>) id.get("input_digests"));
    Object prompts = digests.remove("prompts");
    assertTrue(prompts instanceof String, digests.toString());
    id.put("input_digests", digests);
    Files.writeString(configJson(), Json.pretty(id) + "\n");
    resumesDoingNothing();
    assertEquals(prompts, ((Map<?, ?>) Json.readMap(configJson()).get("input_digests")).get("prompts"));
    Path spec = bench.resolve("bench.json");
    Files.writeString(spec, Files.readString(spec).replace("answer line", "total line"));
    refusedNaming("bench.json's prompts");
  }

  @Test
  void theChecksAreRecordedWhenTheGatedModeFirstRunsAndAnEditAfterIsRefused() throws Exception {
    Path check = bench.resolve("tasks/ledgers/march/checks/check.sh");
    Files.writeString(check, "# edited before the gated mode ran: nothing had read it\n", StandardOpenOption.APPEND);
    assertEquals(2, Sweep.doneFailed(sweepGated())[0]);
    assertTrue(((Map<?, ?>) Json.readMap(configJson()).get("input_digests")).get("checks") instanceof Map<?, ?> m
        && m.keySet().equals(Set.of("ledgers/march", "ledgers/april")), Files.readString(configJson()));
    String was = Files.readString(check);
    Files.writeString(check, "# edited after\n", StandardOpenOption.APPEND);
    refusedNaming(this::sweepGated, "task ledgers/march (its checks folder, which the gated mode's method runs: "
        + bench.resolve("tasks/ledgers/march/checks"));
    resumesDoingNothing(); // the modes that never read the checks still resume
    Files.writeString(check, was);
    Map<String, String> journals = journals();
    assertEquals(2, Sweep.doneFailed(sweepGated())[0]);
    assertEquals(journals, journals(), "the restored checks resumed the gated mode without running anything");
  }

  private Map<String, Object> sweepGated() throws Exception {
    return FolderSweepTest.sweepIn(bench, runs, config, 1, "parallel,sequential,gated", "--onlyDomains=ledgers");
  }

  @Test
  void anEditedGradingFileIsNotPartOfTheIdentity() throws Exception {
    Files.writeString(bench.resolve("tasks/ledgers/march/grading/expected.txt"), "Total: 0.00\n");
    resumesDoingNothing();
  }

  @Test
  void anotherTemperatureIsRefusedNamingTheRoleAndField() throws Exception {
    Files.writeString(config, Files.readString(config).replace("temperature: 0.0", "temperature: 0.7"));
    refusedNaming("(role_settings)", "--config=" + config,
        "roles.executor.temperature was 0.0 when this run began, now 0.7");
  }

  /**
   * The ledgers price each call when it is made: a resume on other prices would hold two price lists in one run's
   * costs, so it is refused naming the role, and the recorded prices are kept.
   */
  @Test
  void otherPricesAreRefusedNamingTheRoleAndPrice() throws Exception {
    assertEquals(Map.of("input", 1.0, "output", 2.0), ((Map<?, ?>) Json.readMap(configJson()).get("prices"))
        .get("executor"));
    Files.writeString(config, Files.readString(config).replace("output: 2.0", "output: 4.0"));
    refusedNaming("(prices)", "--config=" + config, "roles.executor.price_per_mtok of its endpoint output was 2.0"
        + " when this run began, now 4.0", "its finished work was priced at the recorded prices");
  }

  @Test
  void aConfigJsonWrittenBeforeTheseKeysResumesAndRecordsThem() throws Exception {
    Map<String, Object> id = Json.readMap(configJson());
    Object digests = id.remove("input_digests");
    Object settings = id.remove("role_settings");
    Object prices = id.remove("prices");
    Files.writeString(configJson(), Json.pretty(id) + "\n");
    // dogW: the dry run says what the resume will record, for good, before anything is written
    Map<String, String> before = runsTree();
    assertEquals(List.of(configJson() + " predates input_digests, role_settings, prices: the sweep records them in"
        + " it now and lists them as \"unverified\", since an older h2beam did work here that nothing checked"
        + " against them (the report then compares no replicate on them)"), Sweep.dryRunNotes(plan()));
    assertEquals(before, runsTree(), "the dry run's look writes nothing");
    PrintStream err = System.err;
    ByteArrayOutputStream said = new ByteArrayOutputStream();
    System.setErr(new PrintStream(said, true, StandardCharsets.UTF_8));
    try {
      resumesDoingNothing();
    } finally {
      System.setErr(err);
    }
    String note = said.toString(StandardCharsets.UTF_8);
    assertTrue(note.contains("note: " + configJson() + " predates input_digests, role_settings and prices, which"
        + " are not checked this run; recorded now"), note);
    Map<String, Object> now = Json.readMap(configJson());
    assertEquals(digests, now.get("input_digests"));
    assertEquals(settings, now.get("role_settings"));
    assertEquals(prices, now.get("prices"));
    // the work done before ran under settings nobody recorded: the report is told not to take these as its own
    assertEquals(List.of("input_digests", "prices", "role_settings"), now.get("unverified"));
    assertTrue(note.contains("listed under \"unverified\""), note);
    // and from then on they are checked
    Files.writeString(bench.resolve("base/guardrails.md"), "Never round.\n", StandardOpenOption.APPEND);
    refusedNaming("the base harness");
  }

  /**
   * config.json lists the builds of h2beam that wrote the namespace, and each summary the build that made each mode's
   * result: this build from the start, unchanged by its own resume; a namespace whose work an h2beam that records no
   * build did (its config.json lists none) gets "unrecorded" before this build.
   */
  @Test
  void theBuildsThatWroteTheNamespaceAreRecorded() throws Exception {
    assertEquals(List.of(Build.id()), Json.readMap(configJson()).get("h2beam_builds"));
    List<Path> summaries;
    try (java.util.stream.Stream<Path> s = Files.walk(configJson().getParent())) {
      summaries = s.filter(p -> p.getFileName().toString().equals("summary.json")).sorted().toList();
    }
    assertEquals(2, summaries.size(), summaries.toString());
    for (Path summary : summaries) {
      assertEquals(Map.of("agg", Build.id(), "seq", Build.id()), Json.readMap(summary).get("h2beam_build"),
          summary.toString());
    }
    String before = Files.readString(configJson());
    assertEquals(List.of(), Sweep.dryRunNotes(plan()), "nothing to say of a namespace of this build");
    resumesDoingNothing();
    assertEquals(before, Files.readString(configJson()), "a resume by the same build changes nothing");

    Map<String, Object> id = Json.readMap(configJson());
    id.remove("h2beam_builds");
    Files.writeString(configJson(), Json.pretty(id) + "\n");
    resumesDoingNothing();
    assertEquals(List.of("unrecorded", Build.id()), Json.readMap(configJson()).get("h2beam_builds"));
  }

  /**
   * dogW: an older h2beam killed before any task of its sweep finished left rollouts and replies but no summary. A
   * resume reuses them as its own, so the keys it records now are unverified and the builds begin "unrecorded", as for
   * a namespace with finished tasks.
   */
  @Test
  void aNamespaceAnOlderH2beamWasKilledInBeforeAnyTaskFinishedIsTakenAsItsWork() throws Exception {
    Map<String, Object> id = Json.readMap(configJson());
    id.remove("input_digests");
    id.remove("h2beam_builds");
    Files.writeString(configJson(), Json.pretty(id) + "\n");
    List<Path> summaries;
    try (java.util.stream.Stream<Path> s = Files.walk(configJson().getParent())) {
      summaries = s.filter(p -> p.getFileName().toString().startsWith("summary.")).toList();
    }
    for (Path summary : summaries) Files.delete(summary);
    List<String> notes = Sweep.dryRunNotes(plan());
    assertTrue(notes.contains(configJson() + " records no h2beam build although one worked here: the sweep records it"
        + " as \"unrecorded\" before this build in h2beam_builds"), notes.toString());
    assertEquals(2, Sweep.doneFailed(sweep())[0]);
    Map<String, Object> now = Json.readMap(configJson());
    assertEquals(List.of("input_digests"), now.get("unverified"));
    assertEquals(List.of("unrecorded", Build.id()), now.get("h2beam_builds"));
  }
}
