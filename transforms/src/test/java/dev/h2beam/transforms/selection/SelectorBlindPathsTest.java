package dev.h2beam.transforms.selection;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.h2beam.adapters.bench.Benchmark;
import dev.h2beam.adapters.model.BenchPrompts;
import dev.h2beam.adapters.model.BenchSpec;
import dev.h2beam.adapters.model.ChannelSpec;
import dev.h2beam.adapters.model.Rollout;
import dev.h2beam.adapters.model.RunView;
import dev.h2beam.adapters.model.SessionResult;
import dev.h2beam.adapters.proposer.ProposerChannel;
import dev.h2beam.transforms.proposer.Limits;
import dev.h2beam.transforms.proposer.Proposer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The blind selector reads no run folder (spec §7.2): a rollout's folder {@code <executions>/<ns>/<task>/<label>}
 * names the mode and the candidate, and a deliverable or transcript that says where it was written carried it into
 * the selector's evidence unchanged (dogAD F2).
 */
class SelectorBlindPathsTest {
  private static final String TASK = "ledgers/april";
  private static final ChannelSpec SPEC = ChannelSpec.of("scripted", "model-1");

  @TempDir Path root;

  /** A benchmark whose answer (or, with {@code state}, transcript) is the file {@code shown.txt} of the run. */
  private static final class Bench implements Benchmark {
    private final boolean state;

    Bench(boolean state) {
      this.state = state;
    }

    @Override public BenchSpec spec() {
      return new BenchSpec("blind", "copy", BenchPrompts.of("Reconcile the ledger."),
          Map.of("proposer", SPEC, "selector", SPEC), "domain", List.of(), false, Set.of(), "contents", state,
          10_000);
    }

    @Override public String substrate() {
      return "oc";
    }

    @Override public List<String> tasks() {
      return List.of(TASK);
    }

    @Override public String domainOf(String task) {
      return "ledgers";
    }

    @Override public String taskPrompt(String task) {
      return "# Task\nReconcile the ledger.\n";
    }

    @Override public Optional<Path> taskFiles(String task) {
      return Optional.empty();
    }

    @Override public Rollout execute(String task, Path harnessDir, String runId) {
      throw new UnsupportedOperationException();
    }

    @Override public boolean delivered(Path runDir) {
      return !state;
    }

    @Override public String trajectory(Path runDir, int obsTrunc) throws IOException {
      return Files.readString(runDir.resolve("shown.txt"));
    }

    @Override public String deliverableText(Path runDir) throws IOException {
      return state ? "" : Files.readString(runDir.resolve("shown.txt"));
    }

    @Override public Path baseHarness() {
      return Path.of("unused");
    }
  }

  private Path executions() {
    return root.resolve("runs").resolve("_executions");
  }

  /** A candidate {@code label} of namespace {@code ns} whose shown text is {@code text(runDir)}. */
  private RunView candidate(String ns, String label, boolean delivered, java.util.function.Function<Path, String> text)
      throws IOException {
    Path dir = executions().resolve(ns).resolve(TASK).resolve(label);
    Files.createDirectories(dir);
    Files.writeString(dir.resolve("shown.txt"), text.apply(dir));
    return new RunView(label, ns + "/" + TASK + "/" + label, dir.toString(), true, delivered, 0.1, 1.0, "");
  }

  /** Selects among {@code pool} at k = 2 and returns the candidates' files the selector was given, by id. */
  private Map<String, String> shown(Bench bench, List<RunView> pool, List<String> missions) throws IOException {
    ProposerChannel channel = (cwd, mission, system, label, timeout) -> {
      missions.add(mission);
      return SessionResult.reply("<why>first</why>\n```choice\nA\n```\n", 0.01);
    };
    Proposer selector = new Proposer(channel, SPEC, null, 1, Limits.of("sessions", 1), Duration.ZERO);
    Path folder = root.resolve("work").resolve("selection").resolve("seq2");
    SelectionRecord sel = Selector.select(bench, selector, TASK, "seq", 2, pool, folder);
    assertTrue(sel.ok, sel.error);
    Map<String, String> out = new LinkedHashMap<>();
    for (String id : new java.util.TreeSet<>(sel.idMap.keySet())) {
      out.put(id, Files.readString(folder.resolve("candidates").resolve(id + ".md")));
    }
    return out;
  }

  private void assertBlind(Map<String, String> files, List<String> missions, String... secrets) {
    List<String> texts = new ArrayList<>(files.values());
    texts.addAll(missions);
    for (String t : texts) {
      for (String s : secrets) assertFalse(t.contains(s), "'" + s + "' reached the selector:\n" + t);
    }
  }

  @Test
  void deliverablesThatNameTheirRunFolderReachTheSelectorWithOnePlaceholder() throws IOException {
    String ns = "blindtwo-oc-seq2";
    List<RunView> pool = List.of(
        candidate(ns, "c1", true, d -> "total: 42\n(written to " + d.resolve("output") + ")\n"),
        candidate(ns, "c2", true, d -> "total: 42\n(written to " + d.resolve("output") + ")\n"));
    List<String> missions = new ArrayList<>();
    Map<String, String> files = shown(new Bench(false), pool, missions);
    assertEquals(2, files.size());
    assertBlind(files, missions, executions().toString(), ns, "/c1", "/c2", "seq2/");
    for (String f : files.values()) assertTrue(f.endsWith("total: 42\n(written to <run folder>/output)\n"), f);
    // the two differ in nothing but their id
    List<String> bodies = files.values().stream().map(f -> f.substring(f.indexOf('\n'))).toList();
    assertEquals(bodies.get(0), bodies.get(1));
  }

  /** With no deliverable the selector reads transcripts, which hold the executor's env and quoted paths. */
  @Test
  void transcriptsShownInPlaceOfAnswersHoldNoRunFolder() throws IOException {
    String seq = "blindtwo-oc-seq2";
    Path agg = executions().resolve("blindtwo-oc-agg2").resolve(TASK).resolve("agg1");
    List<RunView> pool = List.of(
        candidate(seq, "c1", false, d -> "[ACTION] shell: sh '" + d.resolve("workspace") + "'/run.sh\nPWD=" + d
            + "\nHOME=" + d + ".\nrun " + seq + "/" + TASK + "/c1 done; base at " + agg + "/workspace\n"),
        candidate(seq, "c2", false, d -> "[ACTION] shell: sh '" + d.resolve("workspace") + "'/run.sh\nPWD=" + d
            + "\nHOME=" + d + ".\nrun " + seq + "/" + TASK + "/c2 done; base at " + agg + "/workspace\n"));
    List<String> missions = new ArrayList<>();
    Map<String, String> files = shown(new Bench(true), pool, missions);
    assertEquals(2, files.size());
    assertBlind(files, missions, executions().toString(), seq, "agg2", "/c1", "/c2", "agg1");
    for (String f : files.values()) {
      assertTrue(f.contains("[ACTION] shell: sh '<run folder>/workspace'/run.sh\nPWD=<run folder>\nHOME=<run folder>."
          + "\nrun <run folder> done; base at <run folder>/workspace\n"), f);
    }
  }

  /**
   * JobBench's layout: a run's work products in {@code <store>/<task>/model_output/<name>} and its trajectory in
   * {@code model_traj/<name>}, the name the whole run id ({@code <ns>__<task>__<label>}): the sibling folder and the
   * name alone in a sentence are replaced too (dogAD F2's edges).
   */
  @Test
  void jobBenchsTrajectoryFolderAndFlattenedRunIdsAreReplaced() throws IOException {
    Path store = root.resolve("store");
    List<RunView> pool = new ArrayList<>();
    for (String label : List.of("c1", "c2")) {
      String id = "blindjb-jb-seq2/" + TASK + "/" + label;
      String name = id.replace("/", "__");
      Path dir = store.resolve(TASK).resolve("model_output").resolve(name);
      Files.createDirectories(dir);
      Files.writeString(dir.resolve("shown.txt"), "total: 42\nlog in " + store.resolve(TASK).resolve("model_traj")
          .resolve(name).resolve("executor.log") + "; run " + name + ".\n");
      pool.add(new RunView(label, id, dir.toString(), true, true, 0.1, 1.0, ""));
    }
    List<String> missions = new ArrayList<>();
    Map<String, String> files = shown(new Bench(false), pool, missions);
    assertBlind(files, missions, store.toString(), "seq2", "__c1", "__c2", "model_traj");
    for (String f : files.values()) {
      assertTrue(f.endsWith("total: 42\nlog in <run folder>/executor.log; run <run folder>.\n"), f);
    }
  }

  /**
   * A transcript cut at its truncation limit in the middle of a run folder: what is left of the path still named the
   * start of its namespace (the mode), and is replaced whole; a whole path beside it keeps what follows its folder.
   */
  @Test
  void aRunFolderCutShortByTruncationIsReplacedWhole() throws IOException {
    RunView c1 = candidate("blindtwo-oc-seq2", "c1", true, d -> "");
    String text = "wrote " + c1.runDir() + "/output/total.txt\n[OBSERVATION] ls " + executions()
        + "/blindtwo-oc-se\n";
    assertEquals("wrote <run folder>/output/total.txt\n[OBSERVATION] ls <run folder>\n",
        RunPaths.scrub(Map.of("c1", text), List.of(c1), TASK).get("c1"));
  }

  /** A text with no run folder is returned as it was, so its evidence and the reply cache's key do not change. */
  @Test
  void textsWithoutARunFolderAreUnchanged() throws IOException {
    RunView c1 = candidate("blindtwo-oc-seq2", "c1", true, d -> "");
    String text = "total: 42 from data/ledgers/april/rows.csv; see c1 and c2 and /tmp/other/ledgers/april\n";
    Map<String, String> in = Map.of("c1", text);
    assertSame(text, RunPaths.scrub(in, List.of(c1), TASK).get("c1"));
  }

  /** The same folder reached through a symlink (a linked /tmp) is replaced in its resolved spelling too. */
  @Test
  void theResolvedSpellingOfALinkedRunsRootIsReplaced() throws IOException {
    RunView real = candidate("blindtwo-oc-seq2", "c1", true, d -> "");
    Path link = root.resolve("linked");
    Files.createSymbolicLink(link, root.resolve("runs"));
    Path viaLink = link.resolve("_executions").resolve("blindtwo-oc-seq2").resolve(TASK).resolve("c1");
    RunView linked = new RunView("c1", real.runId(), viaLink.toString(), true, true, 0.1, 1.0, "");
    String text = "at " + Path.of(real.runDir()).toRealPath() + "/output and " + viaLink + "/output\n";
    assertEquals("at <run folder>/output and <run folder>/output\n",
        RunPaths.scrub(Map.of("c1", text), List.of(linked), TASK).get("c1"));
  }

  /** The same candidates give the same pattern in any order, so a rerun writes the same evidence. */
  @Test
  void thePatternDoesNotDependOnTheCandidatesOrder() throws IOException {
    RunView c1 = candidate("blindtwo-oc-seq2", "c1", true, d -> "");
    RunView c2 = candidate("blindtwo-oc-seq2", "c2", true, d -> "");
    assertEquals(RunPaths.pattern(List.of(c1, c2), TASK).pattern(),
        RunPaths.pattern(List.of(c2, c1), TASK).pattern());
  }
}
