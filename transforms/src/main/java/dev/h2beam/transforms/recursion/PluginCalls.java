package dev.h2beam.transforms.recursion;

import dev.h2beam.adapters.exec.HostFailure;
import dev.h2beam.adapters.plugin.BrokenProvider;
import dev.h2beam.transforms.gated.Decision;
import dev.h2beam.transforms.gated.Episode;
import dev.h2beam.transforms.gated.GateTask;
import dev.h2beam.transforms.gated.GatedMethod;
import dev.h2beam.transforms.gated.Manifest;
import dev.h2beam.transforms.gated.Models;
import dev.h2beam.transforms.gated.Proposal;
import dev.h2beam.transforms.gated.Rejection;
import dev.h2beam.transforms.gated.Sample;
import dev.h2beam.transforms.gated.SelectionPolicy;
import dev.h2beam.transforms.gated.TreeEntry;
import dev.h2beam.transforms.safety.CredentialScreen;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalDouble;

/**
 * The gated mode's calls into its plug-ins, the method and the policy, and what their misbehaviour becomes. A method
 * that throws (an exception, or an error other than the JVM's own), returns null or scores NaN failed that call: the
 * step goes on (no proposal, or the worst score), and the failure is printed naming the method and kept for the
 * step's record, so a method failing every call no longer looks like a cautious one. A plug-in built for another
 * Java or h2beam ({@link LinkageError}) or a policy that returns no decision would fail every step alike, so the
 * mode fails at once with one line naming it and its jar.
 */
final class PluginCalls {
  private final TaskScope s;
  private final GatedMethod method;
  private final SelectionPolicy policy;
  private final List<String> errors = new ArrayList<>();

  PluginCalls(TaskScope s, GatedMethod method, SelectionPolicy policy) {
    this.s = s;
    this.method = method;
    this.policy = policy;
  }

  /** A proposal, and why the method failed to make one ({@code ""} when it did not fail). */
  record Proposed(Proposal proposal, String failure) {}

  /** The method's proposal for step {@code label}; no proposal when it threw or returned null. */
  Proposed propose(String label, List<TreeEntry> tree, List<Sample> samples, Models models, List<Rejection> rejected,
      Manifest manifest) throws Exception {
    boolean interrupted = Thread.currentThread().isInterrupted();
    try {
      Proposal p = method.propose(tree, samples, models, rejected, manifest);
      leftInterrupted("propose(" + label + ")", interrupted);
      if (p != null) return new Proposed(withNotesRedacted(p), "");
      String why = "propose(" + label + ") returned null; return Proposal.none(reason) to propose nothing";
      print(why);
      return new Proposed(Proposal.none("the method proposed nothing: " + why), why);
    } catch (LinkageError e) {
      throw broken("propose", e);
    } catch (Exception | Error e) {
      if (e instanceof InterruptedException || Thread.currentThread().isInterrupted() || fatal(e)) throw e;
      hostFailure("propose(" + label + ")", e);
      String why = "propose(" + label + ") failed: " + describe(e);
      print(why);
      return new Proposed(Proposal.none("the method failed: " + describe(e)), why);
    }
  }

  /** Throws the {@link HostFailure} {@code e} holds: the host kept a session or rollout from starting. */
  private static void hostFailure(String call, Throwable e) {
    java.util.Optional<HostFailure> h = HostFailure.of(call + " failed", e);
    if (h.isPresent()) throw h.get();
  }

  /**
   * Whether {@code e} ends the run rather than the method's call: the JVM out of memory or broken. Any other error a
   * method throws (an {@link AssertionError}, a {@link StackOverflowError}) is its failure, as an exception is.
   */
  private static boolean fatal(Throwable e) {
    return e instanceof OutOfMemoryError || e instanceof InternalError || e instanceof UnknownError;
  }

  /**
   * A method that returned normally with its thread's interrupt flag set, unset before it was called (a caught
   * InterruptedException flagged again, say), would have the next wait of h2beam's on this thread fail the whole
   * job, far from the method: the flag is cleared and the method named once.
   */
  private void leftInterrupted(String call, boolean before) {
    if (before || !Thread.interrupted()) return;
    if (WARNED_INTERRUPT.add(method.getClass())) {
      print(call + " returned with its thread's interrupt flag set (an InterruptedException caught and flagged"
          + " again?); h2beam cleared it: a method must not interrupt h2beam's threads");
    }
  }

  private static final java.util.Set<Class<?>> WARNED_INTERRUPT = java.util.concurrent.ConcurrentHashMap.newKeySet();

  /**
   * The method's score of an episode; null when it could not score it, threw, or gave a score that is not a finite
   * number (the last two are failures of the method, printed and kept for the step's record). A null score is the
   * worst for every built-in policy.
   */
  Double evaluate(GateTask task, Episode episode) throws Exception {
    OptionalDouble o;
    boolean interrupted = Thread.currentThread().isInterrupted();
    try {
      o = method.evaluate(task, episode);
      leftInterrupted("evaluate(" + episode.label() + ")", interrupted);
    } catch (LinkageError e) {
      throw broken("evaluate", e);
    } catch (Exception | Error e) {
      if (e instanceof InterruptedException || Thread.currentThread().isInterrupted() || fatal(e)) throw e;
      hostFailure("evaluate(" + episode.label() + ")", e);
      failed("evaluate(" + episode.label() + ") failed: " + describe(e));
      return null;
    }
    if (o == null) {
      failed("evaluate(" + episode.label() + ") returned null; return OptionalDouble.empty() when it cannot score"
          + " an episode");
      return null;
    }
    if (o.isEmpty()) return null;
    if (!Double.isFinite(o.getAsDouble())) {
      failed("evaluate(" + episode.label() + ") returned " + o.getAsDouble() + ", not a finite score; counted as the"
          + " worst score");
      return null;
    }
    return o.getAsDouble();
  }

  /** The policy's decision on the pairs; a policy that answers null or fails ends the mode naming it. */
  Decision decide(List<Double> candidate, List<Double> current, double minWinMargin) {
    Decision d;
    try {
      d = policy.decide(candidate, current, minWinMargin);
    } catch (LinkageError e) {
      throw new BrokenPlugin(policyName() + " " + BrokenProvider.linkage(e, policy.getClass()), e);
    }
    if (d == null) {
      throw new BrokenPlugin(policyName() + " returned no decision (null); a SelectionPolicy must return a"
          + " Decision: fix the policy, or choose another with --policy", null);
    }
    return withReasonRedacted(d);
  }

  /**
   * {@code d} with its free text {@link CredentialScreen#redact redacted}: a policy runs in h2beam's process, where it
   * can read any key h2beam holds, and its reason goes into the step's record, the summary and the next proposals'
   * rejected history, as a method's notes do.
   */
  private static Decision withReasonRedacted(Decision d) {
    String reason = d.reason() == null ? null : CredentialScreen.redact(d.reason());
    String policy = d.policy() == null ? null : CredentialScreen.redact(d.policy());
    String version = d.policyVersion() == null ? null : CredentialScreen.redact(d.policyVersion());
    if (java.util.Objects.equals(reason, d.reason()) && java.util.Objects.equals(policy, d.policy())
        && java.util.Objects.equals(version, d.policyVersion())) {
      return d;
    }
    return new Decision(d.outcome(), policy, version, reason, d.candidate(), d.current());
  }

  /**
   * {@code p} with its notes {@link CredentialScreen#redact redacted}: free text the method wrote, which the step's
   * record, the summary, the manifest and the next proposals' rejected history carry, and a method runs in h2beam's
   * process, where it can read any key h2beam holds. Redacted before anything clips them, so no piece of a key is
   * left at a cut.
   */
  private static Proposal withNotesRedacted(Proposal p) {
    String notes = CredentialScreen.redact(p.notes());
    return notes.equals(p.notes()) ? p : new Proposal(p.mutations(), notes);
  }

  /** A method's exception as its failure is recorded, {@link CredentialScreen#redact redacted} as its notes are. */
  private static String describe(Throwable e) {
    return CredentialScreen.redact(Roller.describe(e));
  }

  /** The evaluate failures since the last call, oldest first (a step's record takes them). */
  List<String> drain() {
    List<String> out = List.copyOf(errors);
    errors.clear();
    return out;
  }

  private void failed(String why) {
    print(why);
    errors.add(why);
  }

  private void print(String why) {
    System.err.println("  [" + s.task() + "] gated: method " + method.name() + ": " + why);
  }

  private BrokenPlugin broken(String call, LinkageError e) {
    return new BrokenPlugin("gated method '" + method.name() + "' (--method=" + method.name() + ", from "
        + BrokenProvider.source(method.getClass()) + ") failed in " + call + ": "
        + BrokenProvider.linkage(e, method.getClass()), e);
  }

  private String policyName() {
    return "selection policy '" + policy.name() + "' (--policy=" + policy.name() + ", from "
        + BrokenProvider.source(policy.getClass()) + ")";
  }

  /** A plug-in that cannot work in this run at all: the mode fails with this one line. */
  static final class BrokenPlugin extends RuntimeException {
    private static final long serialVersionUID = 1L;

    BrokenPlugin(String message, Throwable cause) {
      super(message, cause);
    }
  }
}
