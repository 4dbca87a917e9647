package dev.h2beam.pipelines.judge;

import java.io.IOException;

/**
 * A grade a model judge could not give, with what its calls cost all the same: the ungraded row keeps the cost
 * ({@code judge_cost_usd} in its raw data), so the judge's spend counts it instead of calling it unknown.
 */
final class JudgeModelFailure extends IOException {
  final double costUsd;

  JudgeModelFailure(String message, double costUsd) {
    super(message);
    this.costUsd = costUsd;
  }
}
