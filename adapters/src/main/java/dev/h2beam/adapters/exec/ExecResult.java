package dev.h2beam.adapters.exec;

import dev.h2beam.adapters.model.Tokens;
import java.nio.file.Path;
import java.util.Objects;

/**
 * What one rollout did. A rollout that failed says so in {@code errorClass} ({@code timeout}, {@code exit},
 * {@code model}, {@code start}, ...) and {@code error} (the cause, with the file or command it concerns); it is never
 * a zero score. Token counts the executor could not observe are null, never 0.
 *
 * @param exit the process exit code, or null when no process ran or it was killed
 * @param costKnown whether {@code costUsd} is all the rollout cost: false when a model call of it went unanswered or
 *     answered without its token counts, or its agent was killed before it reported them ({@code costUsd} is then
 *     only the known part)
 * @param tokensKnown whether {@code inputTokens} and {@code outputTokens} are all the tokens it spent: false when a
 *     call of it went uncounted (the counts are then the part counted). It is a mark of its own because the two
 *     differ at a free endpoint, where an uncounted call's cost is still a known $0 but its tokens are not known.
 */
public record ExecResult(Path runDir, Integer exit, double wallS, Long inputTokens, Long outputTokens,
    double costUsd, String errorClass, String error, boolean costKnown, boolean tokensKnown) {
  public ExecResult {
    Objects.requireNonNull(runDir, "runDir");
    errorClass = errorClass == null ? "" : errorClass;
    error = error == null ? "" : error;
  }

  /** A result whose tokens are all counted exactly when its cost is known (one mark for both). */
  public ExecResult(Path runDir, Integer exit, double wallS, Long inputTokens, Long outputTokens, double costUsd,
      String errorClass, String error, boolean costKnown) {
    this(runDir, exit, wallS, inputTokens, outputTokens, costUsd, errorClass, error, costKnown, costKnown);
  }

  /** A result whose cost is known (an executor that calls no model, or whose every call reported its tokens). */
  public ExecResult(Path runDir, Integer exit, double wallS, Long inputTokens, Long outputTokens, double costUsd,
      String errorClass, String error) {
    this(runDir, exit, wallS, inputTokens, outputTokens, costUsd, errorClass, error, true, true);
  }

  public boolean ok() {
    return errorClass.isEmpty();
  }

  /**
   * The model tokens it spent ({@link Tokens#observed}, complete when {@code tokensKnown}). A rollout's completion
   * marker records the same three, so a reused rollout reports what it reported when it ran.
   */
  public Tokens tokens() {
    return Tokens.observed(inputTokens, outputTokens, tokensKnown);
  }
}
