package dev.h2beam.transforms.recursion;

import dev.h2beam.adapters.exec.HostFailure;
import dev.h2beam.adapters.files.Scratch;
import dev.h2beam.adapters.model.HarnessRejected;
import dev.h2beam.adapters.model.RunView;
import dev.h2beam.adapters.model.SurfaceSpec;
import dev.h2beam.adapters.model.Tokens;
import dev.h2beam.transforms.evidence.ContextTree;
import dev.h2beam.transforms.evidence.Evidence;
import dev.h2beam.transforms.evidence.Mission;
import dev.h2beam.transforms.evidence.PoolItem;
import dev.h2beam.transforms.evidence.ShownLibrary;
import dev.h2beam.transforms.evidence.VerdictTripwire;
import dev.h2beam.transforms.prompts.Prompts;
import dev.h2beam.transforms.prompts.Replies;
import dev.h2beam.transforms.proposer.ProposerError;
import dev.h2beam.transforms.proposer.Reply;
import dev.h2beam.transforms.safety.CredentialScreen;
import dev.h2beam.transforms.safety.Fence;
import dev.h2beam.transforms.tree.Autotrigger;
import dev.h2beam.transforms.tree.DiffSummary;
import dev.h2beam.transforms.tree.TreeIO;
import dev.h2beam.transforms.tree.Validation;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Runs one improvement stage (spec §6.3): builds its evidence, calls the improver, and accepts the edited harness or
 * asks once more with the rejection appended. After a transport failure or two rejected proposals the stage falls
 * back to the harness it was asked to edit. A proposal is rejected here or by the channel ({@link Reply#refused}: the
 * openai channel's edit blocks); either way the session answered, so the stage says it was refused. The evidence
 * folder ({@code context/<label>/}) keeps what the sessions were shown: a refused proposal is kept only as its
 * session's harvested folder in the audit trail, where a file holding a credential holds a note in its place
 * ({@link Reply#withheld}).
 *
 * <p>A stage's attempts and cost are those of the sessions that made its replies, whether this process ran them or
 * replayed them from the reply cache, and {@code cached} is always false: a replayed reply is the same session, and
 * the audit trail's sessions.jsonl shows which sessions actually ran. So a summary written after a crash and a retry
 * equals the one a clean run writes.
 */
public final class StageRunner {
  private StageRunner() {}

  static final int STAGE_ATTEMPTS = 2;

  /** What one stage is asked to do. */
  public record Request(
      String label, String dim, String job, Map<String, String> fallback, List<RunView> rollouts, Path harnessDir,
      ShownLibrary library, List<PoolItem> pool, Map<String, String> decisions) {}

  public static Stage run(TaskScope s, Request q) {
    LinkedHashMap<String, String> fallback = new LinkedHashMap<>(q.fallback());
    Path evidence = s.workDir().resolve("context").resolve(q.label());
    String mission;
    ContextTree tree;
    try {
      tree = Evidence.build(evidence, s.bench(), s.task(), q.rollouts(), q.harnessDir(), q.library(),
          q.pool(), q.decisions());
      mission = Mission.of(q.job(), tree);
    } catch (Exception e) {
      // the host's failure is the mode's, not a stage that fell back (HostFailure)
      HostFailure.of("the evidence of session " + q.label() + " could not be built", e).ifPresent(h -> {
        throw h;
      });
      return new Stage(q.label(), q.dim(), fallback, false, true,
          "could not build evidence: " + Roller.describe(e), 0.0, 0, false, "", true, Tokens.NONE);
    }
    SurfaceSpec surface = s.bench().surface();
    double usd = 0;
    boolean known = true;
    Tokens tokens = Tokens.NONE;
    int attempts = 0;
    String error = "";
    String feedback = "";
    // the editable part of the last refused proposal; null while no proposal was refused, or after a failed session
    LinkedHashMap<String, String> refused = null;
    for (int attempt = 1; attempt <= STAGE_ATTEMPTS; attempt++) {
      Reply reply;
      try {
        reply = s.proposer().callWithEvidence(mission + feedback, tree.held(), q.label() + ".a" + attempt, "", "context/harness");
      } catch (ProposerError e) {
        error = e.getMessage();
        attempts += e.attempts() > 0 ? e.attempts() : 2;
        usd += e.costUsd();
        known &= e.costKnown();
        tokens = tokens.plus(e.tokens());
        refused = null;
        break;
      }
      usd += reply.costUsd();
      known &= reply.costKnown();
      tokens = tokens.plus(reply.tokens());
      attempts += Math.max(1, reply.attempts());
      refused = new LinkedHashMap<>();
      if (!reply.refused().isEmpty()) {
        // the channel refused the edits itself (the openai channel's blocks) and applied none: the session answered,
        // so this is a refused proposal, with the channel's reason, whose harness is the one it was to edit
        refused = new LinkedHashMap<>(fallback);
        error = reply.refused();
        feedback = feedback(error);
        continue;
      }
      if (reply.workspace() == null) {
        error = "the harness directory did not come back; edit the files of context/harness/ in place";
        feedback = feedback(error);
        continue;
      }
      List<String> rejected = new ArrayList<>();
      LinkedHashMap<String, String> proposed;
      try {
        proposed = TreeIO.read(surface, reply.workspace(), reply.workspaceFiles(), rejected);
      } catch (HarnessRejected e) {
        // a file withheld for a credential is the first thing to say: the key must be rotated
        error = reply.withheld().isEmpty() ? e.getMessage() : withheld(surface, reply.withheld(), List.of());
        feedback = feedback(error);
        continue;
      }
      refused = proposed;
      if (!reply.withheld().isEmpty()) {
        // the session left a credential (or what could not be screened) in its folder: its text never came back
        error = withheld(surface, reply.withheld(), rejected);
        feedback = feedback(error);
        continue;
      }
      if (proposed.isEmpty()) {
        error = "the harness came back empty: keep every file you do not mean to delete in context/harness/";
        feedback = feedback(error);
        continue;
      }
      if (!rejected.isEmpty()) {
        error = offSurface(surface, rejected);
        feedback = feedback(error);
        continue;
      }
      try {
        boolean kept = accept(s, proposed, fallback);
        return new Stage(q.label(), q.dim(), proposed, kept, false, "", usd, attempts, false,
            Replies.notes(reply.text()), known, tokens);
      } catch (HarnessRejected e) {
        error = e.getMessage();
        feedback = feedback(error);
      }
    }
    return new Stage(q.label(), q.dim(), fallback, false, true, error, usd, attempts, false, "", known, tokens,
        refused);
  }

  /**
   * Why a proposal whose folder held a credential (or a file that could not be screened) is refused: what was withheld
   * from the record, the files off the surface among the rest, then what to do.
   */
  private static String withheld(SurfaceSpec surface, List<String> withheld, List<String> rejected) {
    return "withheld from the record: " + String.join("; ", withheld)
        + (rejected.isEmpty() ? "" : "; files outside the editable surface: " + first(rejected))
        + "; harness trees must never carry credentials: " + CredentialScreen.WHAT_TO_DO
        + (rejected.isEmpty() ? "" : "; " + holds(surface));
  }

  /**
   * The first six off-surface paths as a refusal names them, each {@link CredentialScreen#redact redacted}: the
   * improver chose the names, and the reason reaches the console, the summary and later prompts.
   */
  private static List<String> first(List<String> rejected) {
    return rejected.subList(0, Math.min(6, rejected.size())).stream().map(CredentialScreen::redact).toList();
  }

  /** Why a proposal with files off the editable surface is refused, naming the first six and what a harness holds. */
  private static String offSurface(SurfaceSpec surface, List<String> rejected) {
    return "files outside the editable surface: " + first(rejected) + "; " + holds(surface);
  }

  /** What a harness holds: the editable surface. */
  private static String holds(SurfaceSpec surface) {
    return "a harness holds only the always-on files " + surface.alwaysOn() + ", skills (" + surface.skillDir()
        + "/<name>/SKILL.md), sub_agents/<name>/AGENT.md, scripts/<snake_name>.sh or .py"
        + (surface.pluginDir() == null ? "" : ", " + surface.pluginDir() + "/<name>.ts")
        + (surface.hooksFile() == null ? "" : ", " + surface.hooksFile());
  }

  /**
   * Accepts a proposed tree (the editable surface, autotrigger repair, then every check); returns whether it equals
   * the fallback. Throws {@link HarnessRejected} with an actionable message otherwise. A stage's tree was read from
   * the surface already; a gated method's mutations were not, and a file off it would be written to a rollout's
   * folder.
   */
  static boolean accept(TaskScope s, LinkedHashMap<String, String> tree, Map<String, String> fallback) {
    SurfaceSpec surface = s.bench().surface();
    List<String> off = tree.keySet().stream().filter(p -> !TreeIO.isRead(surface, p)).toList();
    if (!off.isEmpty()) throw new HarnessRejected(offSurface(surface, off));
    List<String> repaired = Autotrigger.repair(surface, tree);
    if (!repaired.isEmpty()) System.err.println("  [" + s.task() + "] auto-triggered skill(s): " + repaired);
    boolean kept = DiffSummary.of(fallback, tree).unchanged();
    Validation.validate(surface, tree, s.bench().spec().allowSubagents(), s.bench().spec().reservedScripts(),
        Scratch.of(s.runsRoot()));
    s.bench().validateTree(tree);
    VerdictTripwire.assertNone(tree);
    List<String> credentials = CredentialScreen.findings(tree);
    if (!credentials.isEmpty()) throw new HarnessRejected(String.join(" | ", credentials));
    return kept;
  }

  /**
   * The retry feedback. The rejection can quote what the improver wrote (a file's text near a grader marker, a
   * path), so it is fenced as untrusted data before it is appended to the mission.
   */
  static String feedback(String error) {
    return Prompts.rejectionFeedback(Fence.untrusted("why the proposed harness was rejected", error));
  }
}
