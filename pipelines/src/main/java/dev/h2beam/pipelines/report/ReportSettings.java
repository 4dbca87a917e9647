package dev.h2beam.pipelines.report;

import java.io.Serializable;
import java.util.List;

/**
 * A validated report request, plain values only so the pipeline's DoFns carry it the same on every runner.
 *
 * @param namespaces summary namespaces in the order resolved from {@code --namespaces}
 * @param ks the k values to report, sorted; empty means every k found
 * @param modes mode tokens to report, in the fixed order agg, seq, gat; every pair of them is compared
 * @param bench the benchmark name the figures are worded for ({@code lab}: partial credit and pass rate)
 * @param minEffect smallest mean paired difference, in percentage points, that can favour a mode
 * @param output the folder report.txt, report.html, report-restricted.json and report.json go to
 * @param objectives what every pair of modes is compared on, each with its direction and minimum effect
 * @param versus summary namespaces of a second runs root from {@code --versus}, whose gated mode is compared with
 *     that of {@code namespaces} ({@link MethodComparison}); empty for none
 */
public record ReportSettings(List<NamespaceRef> namespaces, List<Integer> ks, List<String> modes, String bench,
    Disclosure disclosure, double minEffect, String output, List<Objective> objectives, List<NamespaceRef> versus)
    implements Serializable {

  public ReportSettings {
    namespaces = List.copyOf(namespaces);
    ks = ks.stream().sorted().distinct().toList();
    modes = List.copyOf(modes);
    objectives = List.copyOf(objectives);
    versus = List.copyOf(versus);
  }

  /** Settings without {@code --versus}. */
  public ReportSettings(List<NamespaceRef> namespaces, List<Integer> ks, List<String> modes, String bench,
      Disclosure disclosure, double minEffect, String output, List<Objective> objectives) {
    this(namespaces, ks, modes, bench, disclosure, minEffect, output, objectives, List.of());
  }

  /** Settings with the default objectives, the score's minimum effect from {@code minEffect}. */
  public ReportSettings(List<NamespaceRef> namespaces, List<Integer> ks, List<String> modes, String bench,
      Disclosure disclosure, double minEffect, String output) {
    this(namespaces, ks, modes, bench, disclosure, minEffect, output,
        Objective.parse(Objective.defaults(minEffect)));
  }

  /** The namespaces at the requested k values. */
  List<NamespaceRef> included() {
    return namespaces.stream().filter(n -> ks.isEmpty() || ks.contains(n.k())).toList();
  }

  /** The {@code --versus} namespaces at the requested k values. */
  List<NamespaceRef> versusIncluded() {
    return versus.stream().filter(n -> ks.isEmpty() || ks.contains(n.k())).toList();
  }

  /** Every namespace the report reads: the reported ones, then those of {@code --versus}. */
  List<NamespaceRef> read() {
    List<NamespaceRef> out = new java.util.ArrayList<>(included());
    out.addAll(versusIncluded());
    return out;
  }
}
