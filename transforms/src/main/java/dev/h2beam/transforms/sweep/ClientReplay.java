package dev.h2beam.transforms.sweep;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A sweep whose every task is complete, replayed by the client without building a pipeline. It takes the steps a
 * resumed pipeline takes, in one thread: each (mode, domain) chain replays its tasks' lessons into its library in
 * stream order and records where and when it ran, then each task is finished as skipped. So a resume with nothing to
 * do writes what the pipeline would and costs its file reads, not a runner's start-up.
 */
public final class ClientReplay {
  private ClientReplay() {}

  /** Replays every task of {@code refs} (each {@link SweepSteps#complete}) and returns their rows in stream order. */
  public static List<TaskRow> run(SweepContext c, List<TaskRef> refs) throws Exception {
    LinkedHashMap<String, List<TaskBases>> chains = new LinkedHashMap<>();
    for (TaskRef ref : refs) {
      chains.computeIfAbsent(ref.domain(), d -> new ArrayList<>()).add(new TaskBases(ref, true, false, List.of()));
    }
    Map<String, List<ModeOutcome>> outcomes = new HashMap<>();
    for (String mode : c.config.modes()) {
      for (Map.Entry<String, List<TaskBases>> chain : chains.entrySet()) {
        Instant started = Instant.now();
        SweepSteps.runChain(c, mode, chain.getKey(), chain.getValue(),
            o -> outcomes.computeIfAbsent(o.ref().task(), t -> new ArrayList<>()).add(o));
        ChainRecord.write(c.config, mode, chain.getKey(), chain.getValue().size(), started, Instant.now());
      }
    }
    List<TaskRow> rows = new ArrayList<>();
    for (TaskRef ref : refs) {
      TaskRow row = SweepSteps.finish(c, ref, outcomes.get(ref.task()));
      System.out.println(SweepSteps.line(row));
      rows.add(row);
    }
    return rows;
  }
}
