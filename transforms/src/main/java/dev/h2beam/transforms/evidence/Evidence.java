package dev.h2beam.transforms.evidence;

import dev.h2beam.adapters.exec.HostFailure;
import dev.h2beam.adapters.files.LeakGlobs;
import dev.h2beam.adapters.bench.Benchmark;
import dev.h2beam.adapters.files.PathOrder;
import dev.h2beam.adapters.model.RunView;
import dev.h2beam.adapters.model.SurfaceSpec;
import dev.h2beam.transforms.tree.Py;
import dev.h2beam.transforms.tree.TreeIO;
import dev.h2beam.transforms.tree.UnifiedDiff;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Builds an evidence folder (spec §5.1): the task, its leak-filtered sources, decisions, every rendered rollout and
 * deliverable, the harness being edited, the candidate pool with diffs, and the domain library. The folder is
 * recreated from scratch each time, then checked for answer-key paths and grader verdicts. Sources and harnesses are
 * hard-linked rather than copied (ARCHITECTURE.md, cost): the same bytes, written once; so are the rendered texts the
 * stages of a task repeat ({@link SharedText}), which read a finished rollout's texts once ({@link RolloutTexts}).
 * The library is shown from memory ({@link ShownLibrary}): the session gets all of it, the folder keeps its index.
 */
public final class Evidence {
  private Evidence() {}

  public static ContextTree build(Path dest, Benchmark bench, String taskId, List<RunView> rollouts,
      Path harnessDir, ShownLibrary library, List<PoolItem> pool, Map<String, String> decisions) throws IOException {
    return build(dest, bench, taskId, rollouts, harnessDir, library, pool, decisions, Map.of(), Map.of());
  }

  /**
   * The same with more in the folder: {@code copies}, folders copied in whole (by their place in the folder; copied,
   * not linked, when they are not the run's own files), and {@code texts}, files written (by their place). They are
   * checked and held with the rest.
   */
  public static ContextTree build(Path dest, Benchmark bench, String taskId, List<RunView> rollouts,
      Path harnessDir, ShownLibrary library, List<PoolItem> pool, Map<String, String> decisions,
      Map<String, Path> copies, Map<String, String> texts) throws IOException {
    if (Files.exists(dest)) SharedText.forgetBelow(dest);
    FileTrees.recreate(dest);
    Placed placed = new Placed(dest);
    LeakGlobs leaks = LeakGlobs.of(bench.spec().leakGlobs());
    int obsTrunc = bench.spec().obsTrunc();
    String mode = bench.spec().proposerDeliverables();
    placed.text(dest.resolve("task.md"), bench.taskPrompt(taskId));
    int sources = linkSource(bench, taskId, dest, leaks, placed);

    for (Map.Entry<String, String> d : decisions.entrySet()) {
      String notes = d.getValue() == null || d.getValue().isBlank() ? "No decision notes returned." : d.getValue();
      placed.text(dest.resolve("decisions").resolve(d.getKey() + ".md"), notes);
    }

    List<String> rendered = new ArrayList<>();
    List<String> delivered = new ArrayList<>();
    List<String> failed = new ArrayList<>();
    for (RunView rv : rollouts) {
      Path runDir = Paths.get(rv.runDir());
      try {
        placed.text(dest.resolve("rollouts").resolve(rv.label() + ".md"),
            RolloutTexts.trajectory(bench, runDir, obsTrunc));
        rendered.add(rv.label());
      } catch (Exception e) {
        hostFailure(e);
        String why = e.getClass().getSimpleName() + ": " + e.getMessage();
        placed.text(dest.resolve("rollouts").resolve(rv.label() + ".md"), "(trajectory unavailable: " + why + ")");
        failed.add(rv.label() + ": " + why);
      }
      writeDeliverables(dest.resolve("deliverables"), bench, rv, mode, placed);
      delivered.add(rv.label());
    }
    if (!rollouts.isEmpty() && rendered.isEmpty()) {
      throw new IllegalStateException("no rollout trajectory could be rendered for " + taskId
          + ": the improver would adapt on nothing (" + failed + ")");
    }

    int harnessFiles = 0;
    if (harnessDir != null && Files.isDirectory(harnessDir)) {
      harnessFiles = linkChecked(harnessDir, dest.resolve("harness"), leaks, placed);
    }

    List<String> poolLabels = new ArrayList<>();
    SurfaceSpec surface = bench.surface();
    Map<String, String> current = harnessDir == null || pool.isEmpty() ? Map.of()
        : TreeIO.readHarness(surface, harnessDir);
    for (PoolItem item : pool) {
      Path p = dest.resolve("pool").resolve(item.label());
      if (item.harnessDir() != null && Files.isDirectory(item.harnessDir())) {
        linkChecked(item.harnessDir(), p.resolve("harness"), leaks, placed);
      }
      placed.text(p.resolve("harness.diff"), harnessDir == null ? ""
          : UnifiedDiff.poolDiff(surface, current, item.harnessDir(), item.label()));
      placed.text(p.resolve("rollout.md"), rolloutText(bench, item.rollout(), obsTrunc));
      placed.text(p.resolve("produced.md"), producedText(bench, item.rollout(), mode));
      poolLabels.add(item.label());
    }

    boolean shown = library != null;
    if (shown) {
      library.requireNoLeaks(leaks);
      library.requireNoVerdicts();
      // the folder keeps the index of what it showed, as read with the rest; the entries stay in the library
      Path to = dest.resolve(ShownLibrary.PLACE);
      if (library.hasIndex()) placed.bytes(to.resolve(ShownLibrary.INDEX), library.bytes(ShownLibrary.INDEX));
      placed.shown(to, library);
    }

    for (Map.Entry<String, Path> c : copies.entrySet()) {
      PathOrder.Listing listing = PathOrder.list(c.getValue());
      FileTrees.copy(c.getValue(), dest.resolve(c.getKey()), listing);
      placed.linked(dest.resolve(c.getKey()), listing.files());
    }
    for (Map.Entry<String, String> t : texts.entrySet()) placed.text(dest.resolve(t.getKey()), t.getValue());

    // the folder is new, so what was placed in it is all it holds: its listing and the texts' bytes are at hand, and
    // only the linked files are read; the tripwire scans those bytes, and the session keys and copies them with the
    // library's, which its ShownLibrary read and scanned
    HeldTree held = placed.held();
    // under the tests (assertions on): every evidence folder any test builds is read back and compared
    assert held.matchesDisk() : "the evidence placed in " + dest + " is not what its folder and library hold";
    // the library's files were checked by its ShownLibrary (above), once for the task's stages
    List<String> own = new ArrayList<>(held.files().size());
    for (int i = 0; i < held.files().size(); i++) if (!held.shown(i)) own.add(held.files().get(i));
    leaks.assertNone(own);
    VerdictTripwire.assertNone(held);
    return new ContextTree(dest, taskId, rendered, delivered, harnessFiles, shown, poolLabels, failed, mode,
        sources, decisions.size(), held);
  }

  /**
   * Links the files of {@code from} into {@code to} after checking them for answer-key paths, from one listing (from
   * memory for a harness this process wrote: {@link TreeIO#files}, whose bytes are then known too); the number
   * linked.
   */
  private static int linkChecked(Path from, Path to, LeakGlobs leaks, Placed placed) throws IOException {
    List<String> files = TreeIO.files(from);
    leaks.assertNone(files);
    int n = FileTrees.link(from, to, files, placed.made());
    placed.linked(to, files, TreeIO.writtenTexts(from));
    return n;
  }

  /** Copies the task's source material minus leak-glob matches into {@code root/source}; the count copied. */
  public static int copySource(Benchmark bench, String taskId, Path root, LeakGlobs leaks) throws IOException {
    int n = linkSource(bench, taskId, root, leaks, null);
    leaks.assertNone(root.resolve("source"));
    return n;
  }

  /** {@link #copySource} without the check of the folder afterwards, each file linked noted in {@code placed}. */
  private static int linkSource(Benchmark bench, String taskId, Path root, LeakGlobs leaks, Placed placed)
      throws IOException {
    Optional<Path> files = bench.taskFiles(taskId);
    if (files.isEmpty() || !Files.isDirectory(files.get())) return 0;
    List<String> linked = new ArrayList<>();
    for (String rel : PathOrder.files(files.get())) {
      if (!leaks.matches(rel)) linked.add(rel);
    }
    if (placed == null) {
      for (String rel : linked) FileTrees.linkFile(files.get().resolve(rel), root.resolve("source").resolve(rel));
      return linked.size();
    }
    FileTrees.link(files.get(), root.resolve("source"), linked, placed.made());
    placed.linked(root.resolve("source"), linked);
    return linked.size();
  }

  private static void writeDeliverables(Path dir, Benchmark bench, RunView rv, String mode, Placed placed)
      throws IOException {
    Path runDir = Paths.get(rv.runDir());
    if (!rv.delivered()) {
      placed.text(dir.resolve(rv.label() + ".md"), "(no deliverable produced)");
      return;
    }
    Map<String, String> files;
    try {
      files = RolloutTexts.deliverableFiles(bench, runDir);
    } catch (Exception e) {
      hostFailure(e);
      placed.text(dir.resolve(rv.label() + ".md"), "(deliverable unavailable: " + e.getClass().getSimpleName() + ": "
          + e.getMessage() + ")");
      return;
    }
    if (mode.equals("names")) {
      StringBuilder sb = new StringBuilder("# " + rv.label() + " produced " + files.size() + " file(s)\n\n");
      for (String name : files.keySet()) sb.append("- `").append(name).append("`\n");
      sb.append("\nThe contents are withheld on purpose: the work's own checks live beside them. The trajectory and"
          + " this file set are the evidence; a missing or misnamed file is itself a finding.\n");
      placed.text(dir.resolve(rv.label()).resolve("INDEX.md"), sb.toString());
      return;
    }
    if (files.isEmpty()) {
      String text;
      try {
        text = RolloutTexts.deliverableText(bench, runDir);
      } catch (Exception e) {
        hostFailure(e);
        text = "(deliverable unavailable: " + e.getClass().getSimpleName() + ": " + e.getMessage() + ")";
      }
      placed.text(dir.resolve(rv.label() + ".md"), text);
      return;
    }
    StringBuilder index = new StringBuilder("# " + rv.label() + " produced " + files.size() + " file(s)\n\n");
    for (Map.Entry<String, String> f : files.entrySet()) {
      index.append("- `").append(f.getKey()).append("`  (")
          .append(Py.commas(f.getValue().length())).append(" chars extracted)\n");
      String name = f.getKey().replace("/", "__");
      if (!name.endsWith(".txt")) name = name + ".txt";
      placed.text(dir.resolve(rv.label()).resolve(name), f.getValue());
    }
    index.append("\nEach `.txt` file is the artifact as read by the same reader the work is assessed through; an"
        + " artifact that cannot be converted counts as unreadable.\n");
    placed.text(dir.resolve(rv.label()).resolve("INDEX.md"), index.toString());
  }

  private static String rolloutText(Benchmark bench, RunView rv, int obsTrunc) {
    if (rv == null) return "(unavailable: no rollout)";
    try {
      return RolloutTexts.trajectory(bench, Paths.get(rv.runDir()), obsTrunc);
    } catch (Exception e) {
      hostFailure(e);
      return "(unavailable: " + e.getClass().getSimpleName() + ": " + e.getMessage() + ")";
    }
  }

  private static String producedText(Benchmark bench, RunView rv, String mode) {
    if (rv == null || !rv.delivered()) return "(nothing produced)";
    try {
      Path runDir = Paths.get(rv.runDir());
      if (mode.equals("names")) {
        return String.join("\n", RolloutTexts.deliverableFiles(bench, runDir).keySet());
      }
      Map<String, String> files = RolloutTexts.deliverableFiles(bench, runDir);
      String text;
      if (files.isEmpty()) {
        text = RolloutTexts.deliverableText(bench, runDir);
      } else {
        StringBuilder sb = new StringBuilder();
        for (Map.Entry<String, String> f : files.entrySet()) {
          sb.append("## ").append(f.getKey()).append("\n\n").append(f.getValue()).append("\n\n");
        }
        text = sb.toString();
      }
      return text.isBlank() ? "(nothing produced)" : text;
    } catch (Exception e) {
      hostFailure(e);
      return "(nothing produced: " + e.getClass().getSimpleName() + ": " + e.getMessage() + ")";
    }
  }

  /**
   * Throws the {@link HostFailure} {@code e} holds: evidence the host kept from being read (no file descriptors left)
   * is not the rollout's, and a session shown "(unavailable: ...)" for it would be judged on what the host did.
   */
  private static void hostFailure(Exception e) {
    java.util.Optional<HostFailure> h = HostFailure.of("the evidence could not be read", e);
    if (h.isPresent()) throw h.get();
  }
}
