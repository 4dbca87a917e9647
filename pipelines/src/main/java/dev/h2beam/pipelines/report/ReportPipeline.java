package dev.h2beam.pipelines.report;

import dev.h2beam.pipelines.SpareThreads;
import dev.h2beam.transforms.beam.JsonCoder;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.coders.AtomicCoder;
import org.apache.beam.sdk.coders.ByteArrayCoder;
import org.apache.beam.sdk.coders.Coder;
import org.apache.beam.sdk.coders.CoderException;
import org.apache.beam.sdk.coders.StringUtf8Coder;
import org.apache.beam.sdk.metrics.Counter;
import org.apache.beam.sdk.metrics.Metrics;
import org.apache.beam.sdk.options.PipelineOptions;
import org.apache.beam.sdk.transforms.Create;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.PTransform;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.transforms.View;
import org.apache.beam.sdk.values.PBegin;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.PCollectionTuple;
import org.apache.beam.sdk.values.PCollectionView;
import org.apache.beam.sdk.values.TupleTag;
import org.apache.beam.sdk.values.TupleTagList;

/**
 * The report pipeline: namespaces → read each namespace's judged.json, summary.json files, config.json and
 * metrics.json (an unreadable file becomes a failure record) into its facts → write the report once, from every
 * namespace's facts and every failure. Read-only over the namespaces; it writes only into the output folder.
 */
public final class ReportPipeline {
  private ReportPipeline() {}

  public static final TupleTag<ReadFailure> FAILURES = new TupleTag<>() {};
  /** Each namespace's facts, packed where they are read (see {@link NamespaceRead}). */
  static final TupleTag<PackedFacts> FACTS = new TupleTag<>() {};

  /** The packed facts as their bytes. */
  static final Coder<PackedFacts> PACKED = new PackedCoder();

  /** {@link PackedFacts} as a byte array (equal coders after serialization, unlike a delegate of two lambdas). */
  static final class PackedCoder extends AtomicCoder<PackedFacts> {
    private static final long serialVersionUID = 1L;

    @Override public void encode(PackedFacts f, OutputStream out) throws IOException {
      if (f == null) throw new CoderException("cannot encode null packed facts");
      ByteArrayCoder.of().encode(f.bytes(), out);
    }

    @Override public PackedFacts decode(InputStream in) throws IOException {
      return new PackedFacts(ByteArrayCoder.of().decode(in));
    }

    @Override public void verifyDeterministic() {
      // equal facts pack to equal bytes (FactsCodec)
    }
  }

  /**
   * Builds the pipeline for validated settings.
   *
   * @param runRecord a file the record of this run is written to as well (the command reads it back), or null
   * @param aheadRun the {@link ReadAhead} run reading the namespaces in this JVM already, or null
   */
  public static Pipeline build(ReportSettings settings, PipelineOptions options, String runRecord, String aheadRun) {
    Pipeline p = Pipeline.create(options);
    List<String> dirs = settings.read().stream().map(NamespaceRef::dir).toList();
    int spare = SpareThreads.spare(options, 1);
    p.apply("ReadReportInputs", new ReadReportInputs(dirs, aheadRun))
        .apply("WriteReport", new WriteReport(settings, spare, runRecord));
    return p;
  }

  /** The report's writing step, whose spare threads are held while it writes ({@link SpareThreads}). */
  static final String WRITING = "WriteReportFiles";

  /** Reads every namespace's files; emits each namespace's facts ({@link PackedFacts}) and the failures. */
  public static final class ReadReportInputs extends PTransform<PBegin, PCollectionTuple> {
    private static final long serialVersionUID = 1L;
    private final List<String> dirs;
    private final String aheadRun;

    public ReadReportInputs(List<String> dirs) {
      this(dirs, null);
    }

    /** {@code aheadRun}: the {@link ReadAhead} run whose reads this JVM's reading step takes, or null for none. */
    ReadReportInputs(List<String> dirs, String aheadRun) {
      this.dirs = List.copyOf(dirs);
      this.aheadRun = aheadRun;
    }

    // A namespace is read whole by one call, not file by file and then grouped: the DirectRunner copies a key's
    // grouped values (and the facts gathered for the report) for every bundle that adds to them, which over a tree of
    // 100 namespaces x 500 tasks cost far more than reading the files.
    @Override public PCollectionTuple expand(PBegin begin) {
      PCollectionTuple read = begin
          .apply("Namespaces", Create.of(dirs).withCoder(StringUtf8Coder.of()))
          .apply("ReadNamespaces", ParDo.of(new ReadNamespaceFn(aheadRun))
              .withOutputTags(FACTS, TupleTagList.of(FAILURES)));
      PCollection<PackedFacts> facts = read.get(FACTS).setCoder(PACKED);
      PCollection<ReadFailure> failures = read.get(FAILURES).setCoder(JsonCoder.of(ReadFailure.class));
      return PCollectionTuple.of(FACTS, facts).and(FAILURES, failures);
    }
  }

  /**
   * Reads one namespace ({@link NamespaceRead}): emits its facts, packed, and a failure record per file that is
   * unreadable or malformed. On the DirectRunner the report command may have read it already, in this JVM, while the
   * pipeline was being built ({@link ReadAhead}, under {@code aheadRun}); then that read is emitted.
   */
  static final class ReadNamespaceFn extends DoFn<String, PackedFacts> {
    private static final long serialVersionUID = 1L;
    private final String aheadRun;
    private final Counter read = Metrics.counter(ReadNamespaceFn.class, "files_read");
    private final Counter failed = Metrics.counter(ReadNamespaceFn.class, "files_unreadable");
    private final Counter namespaces = Metrics.counter(ReadNamespaceFn.class, "namespaces_read");

    ReadNamespaceFn(String aheadRun) {
      this.aheadRun = aheadRun;
    }

    @ProcessElement public void process(@Element String dir, MultiOutputReceiver out) {
      NamespaceRead r = ReadAhead.take(aheadRun, dir);
      if (r == null) r = NamespaceRead.of(dir);
      read.inc(r.filesRead());
      failed.inc(r.failures().size());
      for (ReadFailure f : r.failures()) out.get(FAILURES).output(f);
      if (r.facts() == null) return;
      namespaces.inc();
      out.get(FACTS).output(r.facts());
    }
  }

  /**
   * Writes the report once, after every namespace is read (side inputs, the facts packed as bytes: {@link
   * PackedFacts}), into the settings' output folder.
   */
  public static final class WriteReport extends PTransform<PCollectionTuple, PCollection<String>> {
    private static final long serialVersionUID = 1L;
    private final ReportSettings settings;
    private final int spareThreads;
    private final String runRecord;

    public WriteReport(ReportSettings settings) {
      this(settings, 0, null);
    }

    /**
     * {@code spareThreads}: the DirectRunner's threads that have nothing to run while the report is written (its
     * pool less the writer's), held by {@link SpareThreads} so that they do not spin the runner's monitor; 0 on other
     * runners. {@code runRecord}: see {@link ReportPipeline#build}.
     */
    WriteReport(ReportSettings settings, int spareThreads, String runRecord) {
      this.settings = settings;
      this.spareThreads = spareThreads;
      this.runRecord = runRecord;
    }

    @Override public PCollection<String> expand(PCollectionTuple read) {
      PCollectionView<List<PackedFacts>> facts = read.get(FACTS).apply("FactsAsList", View.asList());
      PCollectionView<List<ReadFailure>> failures = read.get(FAILURES).apply("FailuresAsList", View.asList());
      // once every namespace is read (the facts are the writer's side input too), the runner's other threads wait
      SpareThreads.hold(read.getPipeline(), WRITING, spareThreads, facts);
      return read.getPipeline()
          .apply("Once", Create.of(settings.output()).withCoder(StringUtf8Coder.of()))
          .apply(WRITING, ParDo.of(new WriteReportFn(settings, runRecord, facts, failures))
              .withSideInputs(facts, failures))
          .setCoder(StringUtf8Coder.of());
    }
  }

  /** Builds the report from everything read and writes its files; emits the run record's status. */
  static final class WriteReportFn extends DoFn<String, String> {
    private static final long serialVersionUID = 1L;
    private final ReportSettings settings;
    private final String runRecord;
    private final PCollectionView<List<PackedFacts>> facts;
    private final PCollectionView<List<ReadFailure>> failures;
    private final Counter written = Metrics.counter(WriteReportFn.class, "reports_written");
    private final Counter nothing = Metrics.counter(WriteReportFn.class, "nothing_to_report");

    WriteReportFn(ReportSettings settings, String runRecord, PCollectionView<List<PackedFacts>> facts,
        PCollectionView<List<ReadFailure>> failures) {
      this.settings = settings;
      this.runRecord = runRecord;
      this.facts = facts;
      this.failures = failures;
    }

    @ProcessElement public void process(ProcessContext c) throws Exception {
      SpareThreads.write(WRITING, () -> write(c));
    }

    private void write(ProcessContext c) throws Exception {
      // unpacked on the spare cores too (the runner's other threads wait, SpareThreads): each namespace is apart, and
      // the report orders them by folder, not by the order they come in
      List<NamespaceFacts> unpacked = new ArrayList<>(c.sideInput(facts)).parallelStream().map(PackedFacts::unpack)
          .toList();
      Report.Result r = Report.build(settings, unpacked, c.sideInput(failures));
      ReportFiles.write(Path.of(c.element()), r, settings, runRecord == null ? null : Path.of(runRecord));
      (r.reportable() ? written : nothing).inc();
      c.output(r.status());
    }
  }
}
