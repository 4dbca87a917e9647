package dev.h2beam.pipelines.report;

import dev.h2beam.adapters.model.Tokens;
import dev.h2beam.pipelines.files.FileShapes;
import dev.h2beam.transforms.ledger.Ledger;
import java.io.Serializable;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The spend, budget, fallbacks, screened lessons and finals one task's {@code summary.json} records per mode (spec
 * §2.7, §2.8, §2.9, §2.11), and what the base rollouts of a task whose every base failed cost (in no mode's spend).
 *
 * @param modes per mode token, what that mode spent and how many stages fell back
 * @param finals per mode token, its {@code finals}: the labels of the outputs of the mode's final harness
 * @param deadBases what the dead base rollouts cost when the summary is of a task whose every base failed (status
 *     {@code base-failed}: no mode ran, so no mode's ledger holds them); null for any other summary
 * @param choices per mode token, where in the selector's list the candidate it chose stood ({@link Choice}); only
 *     the modes whose selection ran a selector session
 * @param retried how many earlier results of the task a {@code --retryFailedSessions} resume replaced (its summary's
 *     {@code retried} list), each kept beside its summary.json
 * @param afterJudged whether the summary of a retried task ({@code retried} above 0; false for any other) was
 *     written after its namespace's judged.json: the retry ran after the judge, so its judged rows may grade a result
 *     it replaced
 */
public record TaskSummary(String path, String taskId, Map<String, ModeSpend> modes, Map<String, List<String>> finals,
    DeadBases deadBases, Map<String, Choice> choices, int retried, boolean afterJudged) implements Serializable {

  // sorted by mode, immutable, in two arrays (a summary's maps hold a few modes; the report holds 50,000 summaries
  // over 100 namespaces x 500 tasks)
  public TaskSummary {
    modes = SortedArrayMap.copyOf(modes);
    if (!(finals instanceof SortedArrayMap<?>)) {
      TreeMap<String, List<String>> copy = new TreeMap<>();
      finals.forEach((mode, labels) -> copy.put(mode, List.copyOf(labels)));
      finals = SortedArrayMap.copyOf(copy);
    }
    choices = SortedArrayMap.copyOf(choices);
  }

  /** A summary that no {@code --retryFailedSessions} resume replaced, written before its namespace was judged. */
  public TaskSummary(String path, String taskId, Map<String, ModeSpend> modes, Map<String, List<String>> finals,
      DeadBases deadBases, Map<String, Choice> choices) {
    this(path, taskId, modes, finals, deadBases, choices, 0, false);
  }

  /** The same summary, marked as written after its namespace's judged.json ({@code afterJudged}). */
  public TaskSummary writtenAfterJudged() {
    return new TaskSummary(path, taskId, modes, finals, deadBases, choices, retried, true);
  }

  /** A summary whose selections record no choice the report looks at. */
  public TaskSummary(String path, String taskId, Map<String, ModeSpend> modes, Map<String, List<String>> finals,
      DeadBases deadBases) {
    this(path, taskId, modes, finals, deadBases, Map.of());
  }

  /** A summary of a task whose bases did not all fail. */
  public TaskSummary(String path, String taskId, Map<String, ModeSpend> modes, Map<String, List<String>> finals) {
    this(path, taskId, modes, finals, null);
  }

  /** A summary that records no finals. */
  public TaskSummary(String path, String taskId, Map<String, ModeSpend> modes) {
    this(path, taskId, modes, Map.of());
  }

  /**
   * Whether any of the summaries records finals of {@code mode}: the sweep ran it there to its selection, so a
   * namespace without judged rows of it was not judged in it.
   */
  static boolean ran(List<TaskSummary> summaries, String mode) {
    return summaries.stream().anyMatch(t -> !t.finals(mode).isEmpty());
  }

  /**
   * Whether the summaries record {@code mode} but none of them its finals: every task of it failed before selection,
   * so there is nothing of it to judge (the judge says the same), and the judge is not the fix.
   */
  static boolean failedBeforeSelection(List<TaskSummary> summaries, String mode) {
    return !ran(summaries, mode) && summaries.stream().anyMatch(t -> t.modes().containsKey(mode));
  }

  /** Whether {@code mode} ran on this task and failed before it selected: recorded, with no finals. */
  boolean failedBeforeSelecting(String mode) {
    return modes().containsKey(mode) && finals(mode).isEmpty();
  }

  /** The summaries by task id, the first of each task (sorted by path) kept. */
  static Map<String, TaskSummary> byTask(List<TaskSummary> summaries) {
    Map<String, TaskSummary> out = new TreeMap<>();
    for (TaskSummary t : summaries) out.putIfAbsent(t.taskId(), t);
    return out;
  }

  /** The mode's finals; empty when the summary has no such mode or records none. */
  public List<String> finals(String token) {
    return finals.getOrDefault(token, List.of());
  }

  /** The mode's record, or nothing spent when the summary has no such mode. */
  public ModeSpend mode(String token) {
    return modes.getOrDefault(token, ModeSpend.NONE);
  }

  /**
   * One mode of one task.
   *
   * @param fellBack labels of the stages that fell back to the inherited harness
   * @param improverUsd stage usd plus selection usd (selection and reflection sessions), what is known of them
   * @param executorUsd the ledger's {@code rollout_usd} (what is known of it); 0 when the executor reported no cost
   * @param lessonsScreened 1 when the selection record says its lesson was screened out of the library, else 0
   * @param budget the ledger's rollout and session counts; null when the summary records none
   * @param improverUnknown the improver costs {@code improverUsd} leaves out because they are not known: the stages
   *     whose {@code usd_known} is false, and 1 for a selection whose {@code usd_known} is false (its selector's or
   *     reflector's session)
   * @param executorUnknown the rollouts whose cost {@code executorUsd} leaves out because it is not known: the
   *     ledger's {@code cost_unknown.rollouts}
   * @param tokens the model tokens the mode spent on the task ({@link FileShapes#modeTokens}: its ledger's and its
   *     selection's, not {@code known} when they name some not counted); null when the summary does not record them
   * @param attempts the improver session attempts its ledger counted ({@code session_attempts}); null when the
   *     summary records none
   * @param gate the gated mode's steps and its method's failures ({@code gate}); null when the mode records no gate
   */
  public record ModeSpend(int fellBack, double improverUsd, double executorUsd, int lessonsScreened, Budget budget,
      int improverUnknown, int executorUnknown, Tokens tokens, Attempts attempts, GateSteps gate)
      implements Serializable {
    static final ModeSpend NONE = new ModeSpend(0, 0.0, 0.0, 0);

    public ModeSpend {
      if (improverUnknown < 0 || executorUnknown < 0) {
        throw new IllegalArgumentException("a count of costs not known cannot be negative: " + improverUnknown
            + ", " + executorUnknown);
      }
    }

    /** A mode that records no gate (every mode but the gated one). */
    public ModeSpend(int fellBack, double improverUsd, double executorUsd, int lessonsScreened, Budget budget,
        int improverUnknown, int executorUnknown, Tokens tokens, Attempts attempts) {
      this(fellBack, improverUsd, executorUsd, lessonsScreened, budget, improverUnknown, executorUnknown, tokens,
          attempts, null);
    }

    /** A mode whose session attempts are not recorded. */
    public ModeSpend(int fellBack, double improverUsd, double executorUsd, int lessonsScreened, Budget budget,
        int improverUnknown, int executorUnknown, Tokens tokens) {
      this(fellBack, improverUsd, executorUsd, lessonsScreened, budget, improverUnknown, executorUnknown, tokens, null);
    }

    /** A mode whose tokens are not recorded (a summary written before h2beam counted them, or harness2's). */
    public ModeSpend(int fellBack, double improverUsd, double executorUsd, int lessonsScreened, Budget budget,
        int improverUnknown, int executorUnknown) {
      this(fellBack, improverUsd, executorUsd, lessonsScreened, budget, improverUnknown, executorUnknown, null);
    }

    /** A mode whose every cost is known (a summary that marks none as not known, as every file before them). */
    public ModeSpend(int fellBack, double improverUsd, double executorUsd, int lessonsScreened, Budget budget) {
      this(fellBack, improverUsd, executorUsd, lessonsScreened, budget, 0, 0);
    }

    public ModeSpend(int fellBack, double improverUsd, double executorUsd, int lessonsScreened) {
      this(fellBack, improverUsd, executorUsd, lessonsScreened, null);
    }

    public ModeSpend(int fellBack, double improverUsd, double executorUsd) {
      this(fellBack, improverUsd, executorUsd, 0);
    }
  }

  /**
   * The base rollouts of a task whose every base failed (summary status {@code base-failed}): each entry of its
   * {@code base} list carries what that dead rollout cost ({@code cost_usd}), and {@code cost_known: false} when that
   * is not all of it.
   *
   * @param usd the entries' {@code cost_usd} summed: what is known of their cost
   * @param unknown the entries whose cost that sum does not hold all of: {@code cost_known} false, or no
   *     {@code cost_usd} recorded (a summary written before it was, or harness2's)
   * @param tokens the entries' model tokens ({@code tokens}, {@code tokens_known: false} when partial; an entry
   *     without them was written before h2beam counted them)
   */
  public record DeadBases(double usd, int unknown, TokenCount tokens) implements Serializable {
    public DeadBases {
      if (unknown < 0) throw new IllegalArgumentException("a count of costs not known cannot be negative: " + unknown);
      if (tokens == null) throw new IllegalArgumentException("the dead bases' tokens: TokenCount.NONE for none");
    }

    /** Dead bases whose tokens are not looked at. */
    public DeadBases(double usd, int unknown) {
      this(usd, unknown, TokenCount.NONE);
    }
  }

  /**
   * Model tokens added up over tasks (a reported cell's, the dead bases' of the tasks whose every base failed): the
   * counts recorded, how many of the things added have counts that are only part of what they spent, and how many
   * record none (summaries written before h2beam counted tokens, or harness2's): never folded in as 0.
   */
  public record TokenCount(long input, long output, int partial, int notRecorded) implements Serializable {
    /** Nothing added yet. */
    public static final TokenCount NONE = new TokenCount(0, 0, 0, 0);

    /** One thing's tokens: null when its file records none. */
    public static TokenCount of(Tokens t) {
      return t == null ? new TokenCount(0, 0, 0, 1) : new TokenCount(t.input(), t.output(), t.known() ? 0 : 1, 0);
    }

    public TokenCount plus(TokenCount o) {
      return new TokenCount(input + o.input, output + o.output, partial + o.partial, notRecorded + o.notRecorded);
    }

    /** Whether it counted a token or left one out: worth a line of the report. */
    public boolean says() {
      return input + output > 0 || partial > 0;
    }
  }

  /**
   * The improver session attempts a mode's ledger counted for one task ({@code session_attempts}: every attempt of
   * every session, retries included, as harness2's ledger counts them).
   *
   * @param known false when the ledger names sessions whose attempts are not known ({@code attempts_unknown}): the
   *     count is then the part counted, never the whole
   */
  public record Attempts(int count, boolean known) implements Serializable {
    public Attempts {
      if (count < 0) throw new IllegalArgumentException("a count of session attempts cannot be negative: " + count);
    }
  }

  /**
   * What the gated mode's record of one task ({@code modes.gat.gate}) says of its steps: how many ran and in how many
   * its method failed (a step with {@code method_errors}: a {@code propose} or {@code evaluate} that threw or answered
   * nothing usable, so the step went on without the method's work).
   *
   * @param steps the size of its {@code steps}
   * @param methodFailed its {@code method_failed}; null when the summary does not record it (written before h2beam
   *     counted it): not known, never 0
   * @param baseFinal its {@code final_harness} is the base: no candidate was kept
   */
  public record GateSteps(int steps, Integer methodFailed, boolean baseFinal) implements Serializable {
    public GateSteps {
      if (steps < 0 || (methodFailed != null && (methodFailed < 0 || methodFailed > steps))) {
        throw new IllegalArgumentException("method_failed must count some of the gate's " + steps + " steps: "
            + methodFailed);
      }
    }
  }

  /**
   * Where the candidate a blind selector chose stood in the list it was shown: its prompt names the anonymous ids in
   * string order ({@code A, B, C}), and their candidates' files sort the same way. Only a choice its session made
   * among two or more; {@link #UNPLACED} for a selection that ran a session but gives no such place (the stand-in
   * recorded when the session failed, a record without its ids or whose chosen id is not among them, a list of one).
   * A single final delivered without a session (k = 1, the gated mode) is no selection of this kind at all.
   *
   * @param position the chosen id's place in that order, from 1; 0 for {@link #UNPLACED}
   * @param candidates how many ids the list held; 0 for {@link #UNPLACED}
   */
  public record Choice(int position, int candidates) implements Serializable {
    /** A selection whose session made no choice that can be placed. */
    public static final Choice UNPLACED = new Choice(0, 0);

    public Choice {
      if (!(position == 0 && candidates == 0) && (candidates < 2 || position < 1 || position > candidates)) {
        throw new IllegalArgumentException("a choice is one of at least two candidates: position " + position
            + " of " + candidates);
      }
    }

    /** Whether the choice has a place ({@link #UNPLACED} has none). */
    public boolean placed() {
      return candidates > 0;
    }
  }

  /**
   * What a mode's ledger counted for one task (spec §2.8): {@code R} rollouts and {@code P} improver sessions. The
   * method's budget at k is R = 4k and P = 3k in every mode.
   */
  public record Budget(int rollouts, int sessions) implements Serializable {
    /** The budget every mode spends per task at {@code k}. */
    static Budget at(int k) {
      return new Budget(Ledger.rollouts(k), Ledger.sessions(k));
    }

    /** {@code R=8, P=6}. */
    @Override
    public String toString() {
      return "R=" + rollouts + ", P=" + sessions;
    }
  }
}
