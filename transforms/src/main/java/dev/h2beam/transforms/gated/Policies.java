package dev.h2beam.transforms.gated;

import dev.h2beam.adapters.plugin.Registry;
import java.util.List;
import java.util.Locale;
import java.util.TreeMap;

/**
 * The built-in selection policies, and any registered through
 * {@code META-INF/services/dev.h2beam.transforms.gated.SelectionPolicy}, by name.
 */
public final class Policies {
  private Policies() {}

  /** Selects when the candidate wins more pairs than it loses, by more than the margin; could-not-run loses. */
  public static final SelectionPolicy SCORE_COMPARISON = new BuiltIn("score_comparison") {
    @Override public Decision decide(List<Double> candidate, List<Double> current, double margin) {
      int wins = 0;
      int losses = 0;
      for (int i = 0; i < candidate.size(); i++) {
        int c = Double.compare(worst(candidate.get(i)), worst(current.get(i)));
        if (c > 0) wins++;
        else if (c < 0) losses++;
      }
      boolean select = wins - losses > margin;
      String reason = String.format(Locale.ROOT, "%d win(s), %d loss(es), %d tie(s) over %d pair(s)%s", wins, losses,
          candidate.size() - wins - losses, candidate.size(),
          margin > 0 ? String.format(Locale.ROOT, "; margin %s", fmt(margin)) : "")
          + (select ? ": the candidate wins" : ": the candidate does not win");
      return new Decision(select ? "select" : "reject", name(), version(), reason, candidate, current);
    }
  };

  /** Selects every applied candidate. */
  public static final SelectionPolicy ALWAYS = new BuiltIn("always") {
    @Override public Decision decide(List<Double> candidate, List<Double> current, double margin) {
      return new Decision("select", name(), version(), "every applied candidate is selected", candidate, current);
    }
  };

  /** Selects when no pair regressed and at least one improved; could-not-run counts as the worst score. */
  public static final SelectionPolicy PARETO = new BuiltIn("pareto") {
    @Override public Decision decide(List<Double> candidate, List<Double> current, double margin) {
      boolean none = true;
      boolean some = false;
      for (int i = 0; i < candidate.size(); i++) {
        double c = worst(candidate.get(i));
        double k = worst(current.get(i));
        none &= c >= k;
        some |= c > k;
      }
      boolean select = none && some;
      return new Decision(select ? "select" : "reject", name(), version(),
          select ? "no pair regressed and at least one improved"
              : !none ? "Pareto failed: a pair regressed" : "Pareto failed: no pair improved", candidate, current);
    }
  };

  /** A built-in policy: its name, version 1. */
  private abstract static class BuiltIn implements SelectionPolicy {
    private final String name;

    BuiltIn(String name) {
      this.name = name;
    }

    @Override public String name() {
      return name;
    }

    @Override public String version() {
      return "1";
    }
  }

  /** A could-not-run episode's score for comparison: worse than any score. */
  static double worst(Double score) {
    return score == null ? Double.NEGATIVE_INFINITY : score;
  }

  private static String fmt(double v) {
    return v == Math.rint(v) ? String.valueOf((long) v) : String.valueOf(v);
  }

  public static TreeMap<String, SelectionPolicy> all() {
    return Registry.byName(SelectionPolicy.class, SelectionPolicy::name, List.of(SCORE_COMPARISON, ALWAYS, PARETO));
  }

  /** The policy named {@code name}; an error naming the flag and the known ones when there is none. */
  public static SelectionPolicy named(String name) {
    return Registry.named(SelectionPolicy.class, all(), name, "--policy=" + name + " is not a known selection policy",
        "");
  }
}
