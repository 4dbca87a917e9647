package dev.h2beam.pipelines.report;

import dev.h2beam.adapters.files.TextFiles;
import dev.h2beam.pipelines.files.ListedFiles;
import dev.h2beam.transforms.beam.JsonCoder;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.coders.KvCoder;
import org.apache.beam.sdk.coders.StringUtf8Coder;
import org.apache.beam.sdk.io.FileIO;
import org.apache.beam.sdk.metrics.Counter;
import org.apache.beam.sdk.metrics.Metrics;
import org.apache.beam.sdk.options.PipelineOptions;
import org.apache.beam.sdk.transforms.Create;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.PTransform;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.transforms.View;
import org.apache.beam.sdk.transforms.join.CoGbkResult;
import org.apache.beam.sdk.transforms.join.CoGroupByKey;
import org.apache.beam.sdk.transforms.join.KeyedPCollectionTuple;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.PBegin;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.PCollectionTuple;
import org.apache.beam.sdk.values.PCollectionView;
import org.apache.beam.sdk.values.TupleTag;
import org.apache.beam.sdk.values.TupleTagList;

/**
 * The report pipeline: namespace file patterns → {@code FileIO} match → parse each judged.json, summary.json and
 * config.json (an unreadable file becomes a failure record) → group by namespace → write the report once, from every
 * namespace's facts and every failure. Read-only over the namespaces; it writes only into the output folder.
 */
public final class ReportPipeline {
  private ReportPipeline() {}

  public static final TupleTag<KV<String, JudgedFile>> JUDGED = new TupleTag<>() {};
  public static final TupleTag<KV<String, TaskSummary>> SUMMARIES = new TupleTag<>() {};
  public static final TupleTag<KV<String, RunIdentity>> CONFIGS = new TupleTag<>() {};
  public static final TupleTag<ReadFailure> FAILURES = new TupleTag<>() {};
  public static final TupleTag<NamespaceFacts> FACTS = new TupleTag<>() {};
  // the same three inputs as sides of the join by namespace
  static final TupleTag<JudgedFile> JUDGED_SIDE = new TupleTag<>() {};
  static final TupleTag<TaskSummary> SUMMARY_SIDE = new TupleTag<>() {};
  static final TupleTag<RunIdentity> CONFIG_SIDE = new TupleTag<>() {};

  /** Builds the pipeline for validated settings. */
  public static Pipeline build(ReportSettings settings, PipelineOptions options) {
    Pipeline p = Pipeline.create(options);
    List<String> dirs = settings.included().stream().map(NamespaceRef::dir).toList();
    p.apply("ReadReportInputs", new ReadReportInputs(dirs))
        .apply("WriteReport", new WriteReport(settings));
    return p;
  }

  /** The files the report reads in each summary namespace. */
  static List<String> patterns(List<String> dirs) {
    List<String> out = new ArrayList<>();
    for (String d : dirs) {
      out.add(Path.of(d, "judged.json").toString());
      out.add(Path.of(d, "*", "summary.json").toString());
      out.add(Path.of(d, "config.json").toString());
    }
    return out;
  }

  /** Matches and parses every namespace's files; emits one {@link NamespaceFacts} per namespace and the failures. */
  public static final class ReadReportInputs extends PTransform<PBegin, PCollectionTuple> {
    private static final long serialVersionUID = 1L;
    private final List<String> dirs;

    public ReadReportInputs(List<String> dirs) {
      this.dirs = List.copyOf(dirs);
    }

    @Override public PCollectionTuple expand(PBegin begin) {
      PCollectionTuple parsed = begin
          .apply("NamespaceFilePatterns", Create.of(patterns(dirs)).withCoder(StringUtf8Coder.of()))
          .apply("MatchFiles", ListedFiles.of())
          .apply("OpenFiles", FileIO.readMatches())
          .apply("ParseReportFiles", ParDo.of(new ParseReportFileFn())
              .withOutputTags(JUDGED, TupleTagList.of(SUMMARIES).and(CONFIGS).and(FAILURES)));
      PCollection<KV<String, JudgedFile>> judged = parsed.get(JUDGED)
          .setCoder(KvCoder.of(StringUtf8Coder.of(), JsonCoder.of(JudgedFile.class)));
      PCollection<KV<String, TaskSummary>> summaries = parsed.get(SUMMARIES)
          .setCoder(KvCoder.of(StringUtf8Coder.of(), JsonCoder.of(TaskSummary.class)));
      PCollection<KV<String, RunIdentity>> configs = parsed.get(CONFIGS)
          .setCoder(KvCoder.of(StringUtf8Coder.of(), JsonCoder.of(RunIdentity.class)));
      PCollection<ReadFailure> failures = parsed.get(FAILURES).setCoder(JsonCoder.of(ReadFailure.class));
      PCollection<NamespaceFacts> facts = KeyedPCollectionTuple.of(JUDGED_SIDE, judged)
          .and(SUMMARY_SIDE, summaries).and(CONFIG_SIDE, configs)
          .apply("GroupByNamespace", CoGroupByKey.create())
          .apply("AssembleNamespaces", ParDo.of(new AssembleNamespaceFn()))
          .setCoder(JsonCoder.of(NamespaceFacts.class));
      return PCollectionTuple.of(FACTS, facts).and(FAILURES, failures);
    }
  }

  /** Parses one matched file by its name; anything unreadable or malformed goes to the failure output. */
  static final class ParseReportFileFn extends DoFn<FileIO.ReadableFile, KV<String, JudgedFile>> {
    private static final long serialVersionUID = 1L;
    private final Counter read = Metrics.counter(ParseReportFileFn.class, "files_read");
    private final Counter failed = Metrics.counter(ParseReportFileFn.class, "files_unreadable");

    @ProcessElement public void process(@Element FileIO.ReadableFile file, MultiOutputReceiver out) {
      String path = file.getMetadata().resourceId().toString();
      InputFiles.Kind kind = InputFiles.kindOf(path);
      if (kind == null) return;
      String ns = InputFiles.namespaceOf(path);
      try {
        // strict: Beam's readFullyAsUTF8String would turn bytes that are not UTF-8 into U+FFFD without a word
        String text = TextFiles.utf8(file.readFullyAsBytes(), file.getMetadata().resourceId().toString());
        switch (kind) {
          case JUDGED -> {
            int k = NamespaceRef.parse(Path.of(ns)).map(NamespaceRef::k).orElse(0);
            out.get(JUDGED).output(KV.of(ns, InputFiles.judged(path, text, k)));
          }
          case SUMMARY -> out.get(SUMMARIES).output(KV.of(ns, InputFiles.summary(path, text)));
          case CONFIG -> out.get(CONFIGS).output(KV.of(ns, InputFiles.config(path, text)));
          default -> throw new IllegalStateException("unhandled input kind " + kind);
        }
        read.inc();
      } catch (IOException | UncheckedIOException e) {
        // bad data is a failure record; anything else is a bug and fails the run
        failed.inc();
        out.get(FAILURES).output(ReadFailure.of(path, "parse " + kind.name().toLowerCase(Locale.ROOT), e));
      }
    }
  }

  /** One namespace's judged rows, summaries (sorted by path) and identity. */
  static final class AssembleNamespaceFn extends DoFn<KV<String, CoGbkResult>, NamespaceFacts> {
    private static final long serialVersionUID = 1L;
    private final Counter namespaces = Metrics.counter(AssembleNamespaceFn.class, "namespaces_read");

    @ProcessElement public void process(@Element KV<String, CoGbkResult> ns, OutputReceiver<NamespaceFacts> out) {
      List<Scored> rows = new ArrayList<>();
      boolean judged = false;
      for (JudgedFile f : ns.getValue().getAll(JUDGED_SIDE)) {
        judged = true;
        rows.addAll(f.rows());
      }
      List<TaskSummary> summaries = new ArrayList<>();
      ns.getValue().getAll(SUMMARY_SIDE).forEach(summaries::add);
      RunIdentity identity = null;
      for (RunIdentity id : ns.getValue().getAll(CONFIG_SIDE)) identity = id;
      namespaces.inc();
      out.output(new NamespaceFacts(ns.getKey(), judged, rows, summaries, identity));
    }
  }

  /** Writes the report once, after every namespace is read (side inputs), into the settings' output folder. */
  public static final class WriteReport extends PTransform<PCollectionTuple, PCollection<String>> {
    private static final long serialVersionUID = 1L;
    private final ReportSettings settings;

    public WriteReport(ReportSettings settings) {
      this.settings = settings;
    }

    @Override public PCollection<String> expand(PCollectionTuple read) {
      PCollectionView<List<NamespaceFacts>> facts = read.get(FACTS).apply("FactsAsList", View.asList());
      PCollectionView<List<ReadFailure>> failures = read.get(FAILURES).apply("FailuresAsList", View.asList());
      return read.getPipeline()
          .apply("Once", Create.of(settings.output()).withCoder(StringUtf8Coder.of()))
          .apply("WriteReportFiles", ParDo.of(new WriteReportFn(settings, facts, failures))
              .withSideInputs(facts, failures))
          .setCoder(StringUtf8Coder.of());
    }
  }

  /** Builds the report from everything read and writes its files; emits the run record's status. */
  static final class WriteReportFn extends DoFn<String, String> {
    private static final long serialVersionUID = 1L;
    private final ReportSettings settings;
    private final PCollectionView<List<NamespaceFacts>> facts;
    private final PCollectionView<List<ReadFailure>> failures;
    private final Counter written = Metrics.counter(WriteReportFn.class, "reports_written");
    private final Counter nothing = Metrics.counter(WriteReportFn.class, "nothing_to_report");

    WriteReportFn(ReportSettings settings, PCollectionView<List<NamespaceFacts>> facts,
        PCollectionView<List<ReadFailure>> failures) {
      this.settings = settings;
      this.facts = facts;
      this.failures = failures;
    }

    @ProcessElement public void process(ProcessContext c) throws Exception {
      Report.Result r = Report.build(settings, c.sideInput(facts), c.sideInput(failures));
      ReportFiles.write(Path.of(c.element()), r, settings);
      (r.reportable() ? written : nothing).inc();
      c.output(r.reportable() ? "reported" : "nothing-to-report");
    }
  }
}
