package dev.h2beam.transforms.recursion;

import dev.h2beam.adapters.model.HarnessRejected;
import dev.h2beam.adapters.model.RunView;
import dev.h2beam.adapters.model.Tokens;
import dev.h2beam.transforms.evidence.FileTrees;
import dev.h2beam.transforms.gated.Decision;
import dev.h2beam.transforms.gated.Episode;
import dev.h2beam.transforms.gated.GateTask;
import dev.h2beam.transforms.gated.GatedMethod;
import dev.h2beam.transforms.gated.Manifest;
import dev.h2beam.transforms.gated.Models;
import dev.h2beam.transforms.gated.Mutation;
import dev.h2beam.transforms.gated.Proposal;
import dev.h2beam.transforms.gated.Rejection;
import dev.h2beam.transforms.gated.Sample;
import dev.h2beam.transforms.gated.SelectionPolicy;
import dev.h2beam.transforms.gated.TreeEntry;
import dev.h2beam.transforms.ledger.Ledger;
import dev.h2beam.transforms.safety.CredentialScreen;
import dev.h2beam.transforms.tree.TreeIO;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The gated mode ({@code gat}, Reef's way, seed 003) on one task: 3k steps, one after another, each spending one
 * improver session slot and one rollout, so that with the k shared bases the mode spends R = 4k rollouts and
 * P = 3k sessions like the other two.
 *
 * <p>A step asks the method for a proposal over the current harness. A proposal that applies and passes every check
 * a proposal passes (credentials, surface, grader markers) is rolled once as {@code g<j>} and scored by the method;
 * its score is paired with each of the current harness's episodes (the k bases while the base is current; the
 * adopted candidate's episode, and any re-roll, after), and the policy keeps it (it becomes the current harness) or
 * reverts it (it joins the rejected history the next proposals see). A step with no proposal, a failed session or a
 * refused proposal spends its rollout re-rolling the current harness as {@code r<j>}, which adds a pair to every
 * later comparison. The final is the current harness after the last step (the base when every candidate was
 * rejected) and is delivered by its latest delivered episode: no last blind selection.
 */
public final class Gated {
  private Gated() {}

  /** How many rejected proposals a method sees, the most recent. */
  static final int RECENT_REJECTIONS = 5;

  /** Runs the mode. */
  public static ModeResult run(TaskScope s, LinkedHashMap<String, String> base, List<RunView> bases,
      GatedMethod method, SelectionPolicy policy, double minWinMargin) throws Exception {
    ModeResult res = Drivers.start(s, base, bases);
    Path harnesses = s.workDir().resolve("harnesses");
    GateTask task = new GateTask(s.task(), s.bench().taskPrompt(s.task()), s.bench().taskFiles(s.task()),
        s.bench().checks(s.task()));
    Map<String, Double> scores = new HashMap<>();
    // as the sessions read it back from disk: a missing always-on file is there, empty (dogAK F10)
    LinkedHashMap<String, String> current = TreeIO.asWritten(s.bench().surface(), base);
    String currentLabel = "base";
    List<RunView> episodes = new ArrayList<>(bases);
    List<Rejection> rejected = new ArrayList<>();
    Manifest manifest = new Manifest(0, List.of());
    RunView lastRejected = null;
    List<Object> steps = new ArrayList<>();
    int selected = 0;
    int refusedOrRejected = 0;
    int skipped = 0;
    int methodFailed = 0;
    PluginCalls calls = new PluginCalls(s, method, policy);
    for (int j = 1; j <= 3 * s.k(); j++) {
      String label = "g" + j;
      Path currentDir = harnesses.resolve(currentLabel);
      List<Sample> samples = new ArrayList<>();
      for (RunView e : episodes) samples.add(sample(s, calls, task, scores, e, harnessOf(e.label(), currentLabel)));
      if (lastRejected != null) samples.add(sample(s, calls, task, scores, lastRejected, lastRejected.label()));
      StepModels models = new StepModels(s, label, current, currentDir, episodes);
      PluginCalls.Proposed proposed = calls.propose(label, TreeEntry.of(current), samples, models, recent(rejected),
          manifest);
      Proposal proposal = proposed.proposal();
      List<String> failures = new ArrayList<>();
      if (!proposed.failure().isEmpty()) failures.add(proposed.failure());
      // a session asked for whose stage never came back (it threw) failed: a fallen-back stage, as in the other modes
      // (kept_base false there too: the fallback is not an accepted tree), whose spend and attempts are not known; a
      // step that asked for none is a known nothing
      Stage st = models.stage != null ? models.stage
          : models.started ? new Stage(label, "GATE", current, false, true, failures.isEmpty()
              ? "the improver session ended without its stage" : failures.get(0), 0.0, Ledger.ATTEMPTS_UNKNOWN, false,
              "the method's improver session ended in an exception", false, Tokens.UNKNOWN)
          : new Stage(label, "GATE", current, true, false, "", 0.0, 0, false, "the method answered without a session",
              true, Tokens.NONE);
      res.add(st);
      res.ledger.session(label, st.usd(), st.cached(), st.attempts(), st.usdKnown(), st.tokens());

      LinkedHashMap<String, String> candidate = null;
      String refused = "";
      // the step's mutations: the method's, or its improver session's edit that the stage refused
      List<Mutation> mutations = proposal.mutations();
      if (proposal.isNone() && st.wasRefused()) {
        // the session answered and the stage refused its harness (a file off the surface, a credential, ...): a
        // refused proposal, which the method is told of, not a failed session
        refused = st.error();
        mutations = Mutation.diff(current, st.refused());
      } else if (!proposal.isNone()) {
        try {
          candidate = Mutation.apply(current, proposal.mutations());
          if (StageRunner.accept(s, candidate, current)) {
            candidate = null;
            refused = "the mutations leave the harness as it was";
          }
        } catch (HarnessRejected | IllegalArgumentException e) {
          candidate = null;
          refused = e.getMessage();
        }
      }
      Map<String, Object> step = new LinkedHashMap<>();
      step.put("step", j);
      step.put("label", label);
      List<Object> mutationJson = new ArrayList<>();
      for (Mutation m : shown(mutations)) mutationJson.add(m.toJson());
      step.put("mutations", mutationJson);
      step.put("notes", Stage.clip(proposal.notes(), 400));
      Decision d;
      // a step is a candidate g<j> or a re-roll r<j>; an interrupted run may have left the other (a cancelled
      // session made its step a re-roll), its harness folder and its rollout's, completed or not: removed, so the
      // resumed task's files are a clean run's. This run never rolls that label, so nothing completed runs twice
      String other = (candidate != null ? "r" : "g") + j;
      FileTrees.deleteQuietly(harnesses.resolve(other));
      try {
        s.bench().discard(s.task(), s.runId(other));
      } catch (java.io.IOException e) {
        System.err.println("  [" + s.task() + "] cannot remove the rollout " + s.runId(other) + " an interrupted run"
            + " left (" + e.getMessage() + "); remove it by hand: this run does not use it");
      }
      if (candidate != null) {
        RunView ep = Roller.roll(s, label, candidate);
        res.ledger.rollout(label, ep.costUsd(), ep.costKnown(), ep.tokens());
        res.rollouts.put(label, ep);
        res.trees.put(label, candidate);
        Double cs = score(s, calls, task, scores, ep, label);
        List<Double> cand = new ArrayList<>();
        List<Double> cur = new ArrayList<>();
        for (RunView e : episodes) {
          cand.add(cs);
          cur.add(score(s, calls, task, scores, e, harnessOf(e.label(), currentLabel)));
        }
        d = calls.decide(cand, cur, minWinMargin);
        step.put("proposal", "candidate");
        step.put("rollout", label);
        if (!ep.ok()) failures.add("episode " + label + " could not run: " + ep.error());
        else if (cs == null) failures.add("episode " + label + " could not be scored");
        if (d.selected()) {
          selected++;
          current = candidate;
          currentLabel = label;
          episodes = new ArrayList<>(List.of(ep));
          lastRejected = null;
        } else {
          refusedOrRejected++;
          rejected.add(new Rejection(j, proposal.mutations(), d.reason()));
          failures.add("candidate " + label + " rejected: " + d.reason());
          lastRejected = ep;
        }
      } else {
        String rl = "r" + j;
        RunView ep = Roller.roll(s, rl, current);
        res.ledger.rollout(rl, ep.costUsd(), ep.costKnown(), ep.tokens());
        res.rollouts.put(rl, ep);
        res.trees.put(rl, current);
        episodes.add(ep);
        String why = !refused.isEmpty() ? "proposal refused before rolling: " + refused
            : "no proposal: " + proposal.notes();
        if (!refused.isEmpty()) {
          refusedOrRejected++;
          rejected.add(new Rejection(j, shown(mutations), why));
        } else {
          skipped++;
        }
        failures.add(Stage.clip(why, 400));
        d = new Decision("skip", policy.name(), policy.version(), Stage.clip(why, 400), List.of(), List.of());
        step.put("proposal", refused.isEmpty() ? "none" : "refused");
        step.put("rollout", rl);
      }
      step.put("decision", d.toJson());
      step.put("current", currentLabel);
      // what the method got wrong in this step (propose, or evaluate of an episode first scored here): the step still
      // ran, so only these say that the method, not the harness, was the trouble
      List<String> scoring = calls.drain();
      failures.addAll(scoring);
      List<String> methodErrors = new ArrayList<>();
      if (!proposed.failure().isEmpty()) methodErrors.add(proposed.failure());
      methodErrors.addAll(scoring);
      if (!methodErrors.isEmpty()) {
        step.put("method_errors", methodErrors);
        methodFailed++;
      }
      steps.add(step);
      manifest = new Manifest(j, failures);
      if (j == 1) s.faults().crashOnce(s.runsRoot(), s.task(), s.mode());
    }
    RunView last = episodes.get(episodes.size() - 1);
    for (RunView e : episodes) if (e.ok() && e.delivered()) last = e;
    if (last.label().startsWith("base")) {
      // the base final is delivered by a shared base rollout: its harness folder, under that label, is the base
      TreeIO.writeHarness(s.bench().surface(), base, harnesses.resolve(last.label()), true);
    }
    res.finals.add(last.label());
    Map<String, Object> gate = new LinkedHashMap<>();
    gate.put("method", method.name());
    gate.put("policy", policy.name());
    gate.put("policy_version", policy.version());
    gate.put("min_win_margin", minWinMargin);
    gate.put("budget", "3k steps, each one improver session and one rollout (a candidate g<j>, or a re-roll r<j> of"
        + " the current harness), after the k shared bases; no last selection");
    gate.put("final_harness", currentLabel);
    gate.put("selected", selected);
    gate.put("rejected", refusedOrRejected);
    gate.put("skipped", skipped);
    gate.put("method_failed", methodFailed);
    gate.put("steps", steps);
    res.gate = gate;
    res.similarity = null;
    Drivers.finish(s, res);
    return res;
  }

  /** The harness label an episode ran: base rollouts ran the base, every other episode its own folder. */
  private static String harnessOf(String episode, String currentLabel) {
    return episode.startsWith("base") ? "base" : episode.startsWith("r") ? currentLabel : episode;
  }

  /**
   * The mutations as the step's record and the next proposals may see them: a file holding a credential is shown
   * without its text, and a key in a path is redacted (the rejected history reaches prompts, the summary and the
   * audit trail; a key never does).
   */
  static List<Mutation> shown(List<Mutation> mutations) {
    List<Mutation> out = new ArrayList<>();
    for (Mutation m : mutations) {
      boolean key = m.text() != null && !CredentialScreen.hits(m.text()).isEmpty();
      out.add(new Mutation(m.op(), CredentialScreen.redact(m.path()), key ? WITHHELD : m.text()));
    }
    return out;
  }

  /** What a refused file holding a credential shows instead of its text. */
  static final String WITHHELD = "(text withheld: it held a credential; read keys from the environment instead)";

  private static List<Rejection> recent(List<Rejection> all) {
    return List.copyOf(all.subList(Math.max(0, all.size() - RECENT_REJECTIONS), all.size()));
  }

  private static Sample sample(TaskScope s, PluginCalls calls, GateTask task, Map<String, Double> scores, RunView e,
      String harness) throws Exception {
    Double score = score(s, calls, task, scores, e, harness);
    if (!e.ok()) return new Sample(e.label(), harness, "", "(the episode could not run: " + e.error() + ")", score);
    Path dir = Paths.get(e.runDir());
    String deliverable = e.delivered() ? s.bench().deliverableText(dir) : "";
    return new Sample(e.label(), harness, deliverable, s.bench().trajectory(dir, s.bench().spec().obsTrunc()), score);
  }

  /** The method's score of an episode, once per episode; null when it could not run or could not be scored. */
  private static Double score(TaskScope s, PluginCalls calls, GateTask task, Map<String, Double> scores, RunView e,
      String harness) throws Exception {
    if (scores.containsKey(e.label())) return scores.get(e.label());
    Double v = null;
    if (e.ok()) {
      Path dir = Paths.get(e.runDir());
      Map<String, String> files = e.delivered() ? s.bench().deliverableFiles(dir) : Map.of();
      v = calls.evaluate(task, new Episode(e.label(), harness, files,
          s.bench().trajectory(dir, s.bench().spec().obsTrunc())));
    }
    scores.put(e.label(), v);
    return v;
  }

  /** The improver role for one step: one session at most, run as a stage so it is journalled, cached and priced. */
  private static final class StepModels implements Models {
    private final TaskScope s;
    private final String label;
    private final LinkedHashMap<String, String> current;
    private final Path currentDir;
    private final List<RunView> episodes;
    Stage stage;
    /** The improver session was asked for: if no stage came back, what it spent is not known. */
    boolean started;

    StepModels(TaskScope s, String label, LinkedHashMap<String, String> current, Path currentDir,
        List<RunView> episodes) {
      this.s = s;
      this.label = label;
      this.current = current;
      this.currentDir = currentDir;
      this.episodes = List.copyOf(episodes);
    }

    @Override public Edit improver(String job) throws SessionFailed {
      if (stage != null) {
        throw new IllegalStateException("one improver session per step: step " + label + " already ran one");
      }
      started = true;
      stage = StageRunner.run(s, new StageRunner.Request(label, "GATE", job, current, episodes, currentDir,
          s.library(), List.of(), Map.of()));
      if (stage.fellBack()) throw new SessionFailed(stage.error(), stage.wasRefused());
      return new Edit(TreeEntry.of(stage.tree()), stage.notes());
    }
  }
}
