package dev.h2beam.transforms.reflection;

import dev.h2beam.adapters.exec.HostFailure;
import dev.h2beam.adapters.files.AtomicFiles;
import dev.h2beam.adapters.files.Json;
import dev.h2beam.adapters.model.RunView;
import dev.h2beam.transforms.evidence.ContextTree;
import dev.h2beam.transforms.evidence.Evidence;
import dev.h2beam.transforms.evidence.FileTrees;
import dev.h2beam.transforms.evidence.HeldTree;
import dev.h2beam.transforms.evidence.Mission;
import dev.h2beam.transforms.evidence.PoolItem;
import dev.h2beam.transforms.evidence.VerdictTripwire;
import dev.h2beam.transforms.library.Library;
import dev.h2beam.transforms.prompts.Prompts;
import dev.h2beam.transforms.prompts.Replies;
import dev.h2beam.transforms.proposer.ProposerError;
import dev.h2beam.transforms.proposer.Reply;
import dev.h2beam.transforms.recursion.ModeResult;
import dev.h2beam.transforms.recursion.Stage;
import dev.h2beam.transforms.recursion.TaskScope;
import dev.h2beam.transforms.safety.Fence;
import dev.h2beam.transforms.safety.OverrideScreen;
import dev.h2beam.transforms.selection.SelectionRecord;
import dev.h2beam.transforms.selection.Selector;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Reflects on one adopted harness (spec §7.4): builds the whole improvement record, asks the reflector (the selector's
 * channel) for per-edit verdicts and one lesson, and keeps the lesson only when it is complete, carries no grader
 * verdict and passes the instruction-override screen.
 */
public final class Reflector {
  private Reflector() {}

  public static void reflect(TaskScope s, ModeResult res, SelectionRecord sel) {
    String label = s.mode() + s.k();
    Path work = s.workDir();
    Path root = work.resolve("reflection").resolve(label);
    Path copy = work.resolve("reflection").resolve(label + ".experience");
    try {
      List<RunView> all = new ArrayList<>(res.rollouts.values());
      List<PoolItem> pool = new ArrayList<>();
      for (RunView rv : all) {
        if (rv.label().startsWith("base")) continue;
        pool.add(new PoolItem(rv.label(), work.resolve("harnesses").resolve(rv.label()), rv));
      }
      LinkedHashMap<String, String> decisions = new LinkedHashMap<>();
      for (Stage st : res.stages) decisions.put(st.label(), st.decision());
      Map<String, Object> adoption = new LinkedHashMap<>();
      adoption.put("chosen_label", sel.chosenLabel);
      adoption.put("candidate_ids", sel.idMap);
      adoption.put("reason", sel.why);
      // the base harness copied (it is the benchmark's folder, not the run's), and the adoption beside the rest: the
      // build checks and holds everything in root at once
      ContextTree tree = Evidence.build(root, s.bench(), s.task(), all,
          work.resolve("harnesses").resolve(sel.chosenLabel), null, pool, decisions,
          Map.of("base_harness", s.bench().baseHarness()), Map.of("adoption.json", Json.pretty(adoption) + "\n"));
      HeldTree built = tree.held();

      String mission = Mission.of(Prompts.experience(s.bench().promptsFor(s.task())) + "\n# WHAT HAPPENED\n\n"
          + "The harness adopted for this task was `" + sel.chosenLabel + "`. `context/adoption.json` maps the"
          + " anonymous ids the selector saw to labels. The selector's reasoning, quoted as data:\n\n"
          + Fence.untrusted("selector reasoning", sel.why) + "\n\n"
          + "Compare `context/harness/` (adopted) with `context/base_harness/` and with every candidate in"
          + " `context/pool/`; read `context/decisions/` and the trajectories, and look for contrasts.\n", tree);
      FileTrees.delete(copy);
      // the same bytes, linked: nothing edits either folder in place (the session works on its own copy)
      FileTrees.link(root, copy, built.files());
      // not listed nor read again: the copy holds the names and bytes of root just built
      Reply reply;
      try {
        reply = s.reflector().callWithEvidence(mission, built.at(copy), "experience." + label, "", null);
      } catch (ProposerError e) {
        // a lesson lost, not the reflector's "no lesson": recorded, said, and asked again by --retryFailedSessions
        // (dogAF #1)
        sel.spent(e.costUsd(), e.costKnown(), e.tokens());
        sel.experience = new LinkedHashMap<>();
        sel.reflectionError = "the reflector's session failed: " + e.getMessage();
        System.err.println("  [" + s.task() + "] reflection " + label + " failed, no lesson: " + e.getMessage());
        return;
      }
      sel.spent(reply.costUsd(), reply.costKnown(), reply.tokens());
      Optional<String> edits = Replies.edits(reply.text());
      if (edits.isPresent()) AtomicFiles.writeString(root.resolve("edits.md"), edits.get() + "\n");
      LinkedHashMap<String, String> exp = Replies.experience(reply.text());
      if (!Library.hasExperience(exp)) {
        sel.experience = new LinkedHashMap<>();
        return;
      }
      VerdictTripwire.assertNone(Map.of("experience.json", Json.pretty(exp)));
      List<String> findings = screen(exp, sel.why);
      if (!findings.isEmpty()) {
        System.err.println("  [" + s.task() + "] " + label + " lesson screened out, not stored: " + findings);
        sel.experience = new LinkedHashMap<>();
        sel.lessonScreened = new ArrayList<>(findings);
        return;
      }
      sel.experience = exp;
    } catch (HostFailure e) {
      throw e; // the mode's failure: a lesson lost to the host is not the method's "no lesson"
    } catch (Exception e) {
      // the machine's state is no reflection's outcome: a lesson lost to a full disk would be lost for good
      if (dev.h2beam.adapters.files.DiskFull.storage(e)) {
        throw e instanceof RuntimeException re ? re : new java.io.UncheckedIOException(label + " reflection",
            e instanceof java.io.IOException io ? io : new java.io.IOException(e));
      }
      System.err.println("  [" + s.task() + "] reflection " + label + " failed, no lesson: "
          + e.getClass().getSimpleName() + ": " + e.getMessage());
      sel.experience = new LinkedHashMap<>();
      sel.reflectionError = "the reflection failed: " + e.getClass().getSimpleName() + ": " + e.getMessage();
    } finally {
      Selector.persist(sel, work.resolve("selection").resolve(label));
    }
  }

  /**
   * Why a lesson ({@code exp}) with the selector's reason ({@code why}) must not be stored; empty when both are clean.
   * The reason is stored beside the lesson ("Why this was chosen") and read by every later improver of the domain as
   * part of the entry, so it is screened with it (dogAD F4).
   */
  static List<String> screen(Map<String, String> exp, String why) {
    List<String> findings = new ArrayList<>(OverrideScreen.findings(String.join("\n", exp.values())));
    for (String f : OverrideScreen.findings(why)) findings.add("the selector's reason, " + f);
    return findings;
  }
}
