package dev.h2beam.pipelines.sweep;

import dev.h2beam.adapters.config.Endpoint;
import dev.h2beam.adapters.config.ResolvedRole;
import dev.h2beam.adapters.config.RunConfig;
import dev.h2beam.pipelines.UsageError;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * What a sweep spends, from the method's budget identity (spec §2.8): per task and mode R = 4k rollouts (the k base
 * rollouts are rolled once per task and shared by the modes) and P = 3k improver sessions, plus one selector session
 * when k >= 2 and at most one reflector session. Also the bound on k.
 */
public final class SweepBudget {
  private SweepBudget() {}

  /**
   * The largest {@code --k}. The budget grows linearly in k, and at k = 16 one task and mode already spends 64
   * rollouts and 48 improver sessions, each composition stage reads all 2k = 32 proposals, and the selector compares
   * 16 finals; a slip such as {@code --k=100} would commit 400 rollouts per task and mode before anyone noticed.
   */
  public static final int MAX_K = 16;

  /** Refuses a k outside 1..{@link #MAX_K}, saying why. */
  public static void checkK(int k) {
    if (k < 1) throw new UsageError("--k must be at least 1 (got " + k + ")");
    if (k > MAX_K) {
      throw new UsageError("--k=" + k + " is above the largest k, " + MAX_K + ": each task and mode would spend R = 4k"
          + " = " + 4L * k + " rollouts and P = 3k = " + 3L * k + " improver sessions; use --k=1.." + MAX_K);
    }
  }

  /**
   * The dry run's budget lines, each starting with {@code #}; with {@code retry} (--retryFailedSessions), the
   * finished tasks it runs again are no resumed tasks that spend nothing (dogAF #6).
   */
  static List<String> lines(int k, List<String> modeNames, int tasks, RunConfig config, boolean retry) {
    int modes = modeNames.size();
    long pairs = (long) tasks * modes;
    // the gated mode keeps its last checkpoint as its final: it runs no selection (dogAK F5)
    boolean gated = modeNames.contains("gat");
    long selecting = gated ? modes - 1 : modes;
    long selector = k >= 2 ? (long) tasks * selecting : 0;
    long executions = (long) tasks * k + pairs * 3L * k;
    List<String> out = new ArrayList<>();
    String selection = k < 2 ? "no selector session (k = 1)" : gated && selecting == 0
        ? "no selector session (the gated mode selects none)" : gated
        ? "1 selector session (none in the gated mode)" : "1 selector session";
    out.add(String.format(Locale.ROOT, "# budget per task and mode: R = 4k = %d rollouts (%d base rollout(s) shared"
        + " by the modes), P = 3k = %d improver sessions, %s and at most 1 reflector session", 4 * k, k, 3 * k,
        selection));
    out.add(String.format(Locale.ROOT, "# this stream, %d task(s) x %d mode(s): the budget ledgers' totals R = %d,"
        + " P = %d", tasks, modes, pairs * 4 * k, pairs * 3 * k));
    out.add(String.format(Locale.ROOT, "# overall at most: %d rollouts executed, %d sessions (%d improver, %d"
        + " selector, up to %d reflector); tasks resumed from an earlier run spend nothing%s", executions,
        pairs * 3 * k + selector + pairs, pairs * 3 * k, selector, pairs, retry ? ", but those --retryFailedSessions"
        + " runs again (named below) spend what their failed sessions, and what depends on them, cost anew" : ""));
    out.add("# cost: " + cost(config));
    return out;
  }

  /**
   * The cost line. Prices are per token and the token counts of a call are known only from its response, so no
   * figure is made up: without an endpoint or with prices of 0 it is $0, as the ledgers will count it; with prices it
   * names them and where the spend will appear.
   */
  static String cost(RunConfig config) {
    List<String> priced = new ArrayList<>();
    boolean anyEndpoint = false;
    for (String role : RunConfig.ROLES) {
      if (role.equals("judge")) continue;
      anyEndpoint |= config.role(role).isPresent();
      config.role(role).ifPresent(r -> {
        if (priced(r)) {
          Endpoint e = r.endpoint();
          priced.add(String.format(Locale.ROOT, "%s $%s in / $%s out", role, num(e.priceInputPerMtok()),
              num(e.priceOutputPerMtok())));
        }
      });
    }
    // what the ledgers will count, not "unknown": no endpoint (scripted sessions) or prices of 0 cost $0
    if (!anyEndpoint) return "$0 (no model endpoint: the benchmark's own scripted sessions)";
    if (priced.isEmpty()) {
      return "$0: every endpoint's price is 0 (price_per_mtok gives 0, or is not given, which means free tokens,"
          + " e.g. a local model); give prices above 0 in price_per_mtok to count spend";
    }
    return "not estimated before running (prices per million tokens: " + String.join(", ", priced) + "; token"
        + " counts come from each response), recorded as it is spent in the ledgers and the report";
  }

  private static boolean priced(ResolvedRole r) {
    return r.endpoint().priceInputPerMtok() > 0 || r.endpoint().priceOutputPerMtok() > 0;
  }

  private static String num(double d) {
    return d == Math.rint(d) ? String.valueOf((long) d) : String.valueOf(d);
  }
}
