/**
 * The report: judged rows and task summaries of finished namespaces become harness2's text report, replicate
 * summaries, the paired comparison of the two modes and a self-contained HTML page. Read-only over its inputs; no
 * class except {@code ReportPipeline}, {@code ReportOptions} and {@code ReportCommand} imports Beam, and an absence
 * (an ungraded row) is never counted as a zero.
 */
package dev.h2beam.pipelines.report;
