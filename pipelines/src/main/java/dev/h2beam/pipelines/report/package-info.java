/**
 * The report: judged rows, task summaries and metric vectors of finished namespaces become harness2's text report,
 * replicate summaries, the paired comparison of every pair of modes on score and pass and over the objectives of the
 * metric vector, the judge's own spread, and a self-contained HTML page. Read-only over its inputs; no
 * class except {@code ReportPipeline}, {@code ReportOptions} and {@code ReportCommand} imports Beam, and an absence
 * (an ungraded row) is never counted as a zero.
 */
package dev.h2beam.pipelines.report;
