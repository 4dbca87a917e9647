package dev.h2beam.pipelines.judge;

import java.io.IOException;

/**
 * A grade a model judge could not give, with what its calls cost all the same: the ungraded row keeps the cost
 * ({@code judge_cost_usd} in its raw data), so the judge's spend counts it instead of calling it unknown. Null when a
 * call's cost is not known (it got no answer, or its answer reported no tokens).
 */
final class JudgeModelFailure extends IOException {
  final Double costUsd;

  JudgeModelFailure(String message, Double costUsd) {
    super(message);
    this.costUsd = costUsd;
  }
}
