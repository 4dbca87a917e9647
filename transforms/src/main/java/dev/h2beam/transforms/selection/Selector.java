package dev.h2beam.transforms.selection;

import dev.h2beam.adapters.exec.HostFailure;
import dev.h2beam.adapters.bench.Benchmark;
import dev.h2beam.adapters.files.AtomicFiles;
import dev.h2beam.adapters.files.Json;
import dev.h2beam.adapters.model.RunView;
import dev.h2beam.transforms.evidence.Evidence;
import dev.h2beam.transforms.evidence.FileTrees;
import dev.h2beam.adapters.files.LeakGlobs;
import dev.h2beam.transforms.evidence.VerdictTripwire;
import dev.h2beam.transforms.prompts.Prompts;
import dev.h2beam.transforms.prompts.Replies;
import dev.h2beam.transforms.proposer.Proposer;
import dev.h2beam.transforms.proposer.ProposerError;
import dev.h2beam.transforms.tree.Py;
import dev.h2beam.transforms.proposer.Reply;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;

/**
 * Chooses one final per mode without seeing labels, harnesses or scores (spec §7.1–§7.3): non-answers are dropped,
 * the survivors get shuffled anonymous ids, and the selector reads only their rendered deliverables. At k = 1 the
 * single final is delivered without a selector session.
 */
public final class Selector {
  private Selector() {}

  /** The selection pool: exactly the mode's finals that were rolled, in final order (bases never enter). */
  public static List<RunView> pool(List<String> finals, Map<String, RunView> rollouts) {
    List<RunView> out = new ArrayList<>();
    for (String f : finals) if (rollouts.containsKey(f)) out.add(rollouts.get(f));
    return out;
  }

  /**
   * Runs selection for one mode.
   *
   * @param folder {@code <work>/selection/<mode><k>}
   */
  public static SelectionRecord select(Benchmark bench, Proposer selector, String task, String mode, int k,
      List<RunView> candidates, Path folder) {
    return select(bench, selector, task, mode, k, candidates, folder, null);
  }

  /**
   * As {@link #select(Benchmark, Proposer, String, String, int, List, Path)}, the anonymous ids shuffled with
   * {@code idSalt} too when it is not null ({@link AnonIds#REPLICATE}: the sweep's seed).
   */
  public static SelectionRecord select(Benchmark bench, Proposer selector, String task, String mode, int k,
      List<RunView> candidates, Path folder, String idSalt) {
    return select(bench, selector, task, mode, k, candidates, folder, k == 1, idSalt);
  }

  /**
   * Delivers a mode's one final as it is, without a selector session, whatever k is (the gated mode keeps one
   * harness and runs no last selection); {@code why} says so in the record.
   */
  public static SelectionRecord deliver(Benchmark bench, String task, String mode, int k, List<RunView> finals,
      Path folder, String why) {
    SelectionRecord sel = select(bench, null, task, mode, k, finals, folder, true, null);
    if (sel.ok) {
      sel.why = why;
      persist(sel, folder);
    }
    return sel;
  }

  private static SelectionRecord select(Benchmark bench, Proposer selector, String task, String mode, int k,
      List<RunView> candidates, Path folder, boolean single, String idSalt) {
    SelectionRecord sel = new SelectionRecord(task, mode, k);
    Map<String, String> artifacts = new LinkedHashMap<>();
    for (RunView rv : candidates) {
      if (!rv.ok() || !rv.delivered()) {
        sel.dropped.add(rv.label());
        continue;
      }
      try {
        String text = bench.deliverableText(Paths.get(rv.runDir()));
        if (text.isBlank()) sel.dropped.add(rv.label());
        else artifacts.put(rv.label(), text);
      } catch (Exception e) {
        // a candidate the host kept us from reading is not one the method dropped (HostFailure)
        HostFailure.of("candidate " + rv.label() + " could not be read for selection", e).ifPresent(h -> {
          throw h;
        });
        sel.dropped.add(SelectionRecord.clip(rv.label() + " (render failed: " + e.getClass().getSimpleName() + ": "
            + e.getMessage() + ")", 200));
      }
    }
    if (artifacts.isEmpty() && !candidates.isEmpty() && bench.spec().stateDeliverable()) {
      for (RunView rv : candidates) {
        if (!rv.ok()) continue;
        try {
          String traj = bench.trajectory(Paths.get(rv.runDir()), bench.spec().obsTrunc());
          if (traj.isBlank() || traj.startsWith("(no trajectory")) continue;
          artifacts.put(rv.label(), "This task produced no file; the candidate is shown as its transcript.\n\n"
              + traj);
          sel.dropped.remove(rv.label());
        } catch (Exception e) {
          // stays dropped
        }
      }
      if (!artifacts.isEmpty()) sel.evidence = "trajectory";
    }
    sel.nCandidates = artifacts.size();
    Map<String, RunView> byLabel = new LinkedHashMap<>();
    for (RunView rv : candidates) byLabel.put(rv.label(), rv);

    if (single) {
      if (candidates.size() > 1) throw new IllegalStateException("trivial selection needs at most one final");
      FileTrees.recreate(folder);
      if (artifacts.isEmpty()) {
        sel.error = "no candidate produced an artifact (finals-only pool has no base fallback)";
        return persist(sel, folder);
      }
      String label = artifacts.keySet().iterator().next();
      sel.ok = true;
      sel.trivial = true;
      sel.chosenId = "A";
      sel.idMap.put("A", label);
      sel.chosenLabel = label;
      sel.why = "The single final of k=1 was delivered as it is; no selector session was run.";
      return persist(chosen(sel, byLabel), folder);
    }
    if (artifacts.isEmpty()) {
      sel.error = "no candidate produced an artifact";
      return sel;
    }
    sel.idMap = AnonIds.assign(new ArrayList<>(artifacts.keySet()), task, k, mode, idSalt);
    String label = mode + k;
    try {
      // the selector reads no path that names a candidate's mode or label (spec §7.2); the record keeps the labels
      String mission = writeFolder(bench, task, folder, sel.idMap, RunPaths.scrub(artifacts, candidates, task));
      VerdictTripwire.assertNone(folder);
      // a reply without a choice of these ids is a failed attempt of the session, never a cached success
      Map<String, String> ids = sel.idMap;
      Reply reply = selector.call(mission, folder, "select." + label, "", null, text -> unusable(text, ids));
      sel.spent(reply.costUsd(), reply.costKnown(), reply.tokens());
      sel.why = SelectionRecord.clip(Replies.why(reply.text()), 2000);
      String problem = unusable(reply.text(), sel.idMap);
      if (!problem.isEmpty()) throw new IllegalArgumentException(problem);
      Optional<String> choice = Replies.choice(reply.text());
      sel.ok = true;
      sel.chosenId = choice.get();
      sel.chosenLabel = sel.idMap.get(choice.get());
    } catch (ProposerError e) {
      sel.spent(e.costUsd(), e.costKnown(), e.tokens());
      fallBack(sel, e.getMessage());
    } catch (HostFailure e) {
      throw e; // the mode's failure, not the selector's
    } catch (Exception e) {
      fallBack(sel, e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage());
    }
    return persist(chosen(sel, byLabel), folder);
  }

  /**
   * Why a selector's reply chooses none of {@code ids}, or "" when it chooses one: the README's "an empty or
   * unparsable reply is a failed attempt", so that a resume asks the selector again instead of replaying it.
   */
  static String unusable(String reply, Map<String, String> ids) {
    Optional<String> choice = Replies.choice(reply);
    if (choice.isEmpty()) return "no ```choice block in the reply";
    return ids.containsKey(choice.get()) ? ""
        : "chose '" + choice.get() + "', which is not one of " + new ArrayList<>(ids.keySet());
  }

  /** Records the neutral stand-in (the first label in string order) after a failed selector; ok stays false. */
  private static void fallBack(SelectionRecord sel, String error) {
    String first = new TreeSet<>(sel.idMap.values()).first();
    for (Map.Entry<String, String> e : sel.idMap.entrySet()) {
      if (e.getValue().equals(first)) sel.chosenId = e.getKey();
    }
    sel.chosenLabel = first;
    sel.fallback = true;
    sel.ok = false;
    sel.error = SelectionRecord.clip(error, 400);
  }

  private static SelectionRecord chosen(SelectionRecord sel, Map<String, RunView> byLabel) {
    RunView rv = byLabel.get(sel.chosenLabel);
    sel.chosenRunId = rv == null ? "" : rv.runId();
    sel.chosenRunDir = rv == null ? "" : rv.runDir();
    sel.chosenIsBase = sel.chosenLabel.startsWith("base");
    return sel;
  }

  /** Rewrites {@code selection.json}; a disk error makes the selection not ok and says so. */
  public static SelectionRecord persist(SelectionRecord sel, Path folder) {
    try {
      AtomicFiles.writeString(folder.resolve("selection.json"), Json.pretty(sel.toJson()) + "\n");
    } catch (IOException e) {
      sel.ok = false;
      sel.error = SelectionRecord.clip(sel.error + " | could not persist selection: " + e.getMessage(), 400);
    }
    return sel;
  }

  private static String writeFolder(Benchmark bench, String task, Path folder, Map<String, String> idMap,
      Map<String, String> artifacts) throws IOException {
    FileTrees.recreate(folder);
    Files.writeString(folder.resolve("task.md"), bench.taskPrompt(task));
    Evidence.copySource(bench, task, folder, LeakGlobs.of(bench.spec().leakGlobs()));
    Files.createDirectories(folder.resolve("candidates"));
    for (Map.Entry<String, String> e : idMap.entrySet()) {
      String text = artifacts.get(e.getValue());
      String header = candidateHeader(e.getKey(), text, bench.promptsFor(task).deliverableWord());
      Files.writeString(folder.resolve("candidates").resolve(e.getKey() + ".md"), header + text);
    }
    String ids = String.join(", ", new TreeSet<>(idMap.keySet()));
    String job = Prompts.select(bench.promptsFor(task), idMap.size(), "finals", "");
    return job.stripTrailing() + "\n\n# YOUR EVIDENCE\n\n"
        + "- `context/task.md`: the request\n"
        + "- `context/source/`: the source material\n"
        + "- `context/candidates/<id>.md` for the ids " + ids + "\n\n"
        + "Open every candidate, then choose exactly one of these ids: " + ids + ".\n";
  }

  /** The marker a deliverable's text ends with when its reading was cut ({@code TextFiles.readCapped}). */
  private static final java.util.regex.Pattern CUT = java.util.regex.Pattern.compile(
      "…\\(\\+([0-9]+) chars — render truncation\\)\\s*$");

  /**
   * The first line of a candidate's file (spec §7.2): its id, its size in chars and lines (digits grouped by commas),
   * and that nothing was trimmed. Written out, not formatted: a format string was parsed for every candidate shown.
   * A deliverable whose reading was cut (longer than the benchmark shows) is said to be cut, with how much of it is
   * shown: telling the selector it has the whole of it would be false.
   */
  static String candidateHeader(String id, String text, String deliverableWord) {
    long lines = text.isEmpty() ? 0 : text.split("\n", -1).length - (text.endsWith("\n") ? 1 : 0);
    java.util.regex.Matcher cut = CUT.matcher(text);
    String whole = cut.find() ? "This is the beginning of the " + deliverableWord + ", cut after "
        + Py.commas(cut.start()) + " of its " + Py.commas(cut.start() + Long.parseLong(cut.group(1)))
        + " chars (the rest is not shown)." : "This is the complete " + deliverableWord + ", nothing trimmed.";
    return "<!-- candidate " + id + ": " + Py.commas(text.length()) + " chars, " + Py.commas(lines) + " lines. "
        + whole + " -->\n";
  }
}
