package dev.h2beam.transforms.beam;

import dev.h2beam.adapters.files.Json;
import dev.h2beam.transforms.sweep.SweepRecord;
import dev.h2beam.transforms.sweep.SweepSteps;
import dev.h2beam.transforms.sweep.TaskRow;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.beam.sdk.coders.StringUtf8Coder;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.GroupByKey;
import org.apache.beam.sdk.transforms.PTransform;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.PCollection;

/**
 * Gathers every task row and writes the sweep record (spec §8.6): the run's identity, its domain order and, per
 * domain, the task rows in stream order (not completion order, so the record is deterministic apart from its times).
 * The rows come keyed by one key for all ({@link FinishTasks}).
 */
public final class WriteSweepRecord extends PTransform<PCollection<KV<Void, TaskRow>>, PCollection<String>> {
  private static final long serialVersionUID = 1L;
  private final String path;
  private final Map<String, Object> header;

  /**
   * @param header the record's leading keys (benchmark, substrate, k, modes, seed, tag, domain_order, ...,
   *     started_at)
   */
  public WriteSweepRecord(String path, Map<String, Object> header) {
    this.path = path;
    this.header = new LinkedHashMap<>(header);
  }

  @Override public PCollection<String> expand(PCollection<KV<Void, TaskRow>> rows) {
    return rows
        .apply("GatherRows", GroupByKey.create())
        .apply("WriteRecord", ParDo.of(new WriteRecordFn(path, Json.pretty(header))))
        .setCoder(StringUtf8Coder.of());
  }

  static final class WriteRecordFn extends DoFn<KV<Void, Iterable<TaskRow>>, String> {
    private static final long serialVersionUID = 1L;
    private final String path;
    private final String headerJson;

    WriteRecordFn(String path, String headerJson) {
      this.path = path;
      this.headerJson = headerJson;
    }

    @ProcessElement public void process(@Element KV<Void, Iterable<TaskRow>> all, OutputReceiver<String> out)
        throws Exception {
      List<TaskRow> rows = new ArrayList<>();
      all.getValue().forEach(rows::add);
      // every task's line once all have finished, in stream order (the tasks' groups complete in no set order)
      for (TaskRow r : SweepRecord.inStreamOrder(rows)) System.out.println(SweepSteps.line(r));
      out.output(SweepRecord.write(Paths.get(path), headerJson, rows));
    }
  }
}
