package dev.h2beam.pipelines.judge;

import com.fasterxml.jackson.databind.JsonNode;
import dev.h2beam.adapters.files.Json;
import dev.h2beam.adapters.files.TextFiles;
import dev.h2beam.adapters.model.Namespace;
import dev.h2beam.pipelines.SpareThreads;
import dev.h2beam.pipelines.files.ListedFiles;
import dev.h2beam.transforms.beam.JsonCoder;
import java.io.IOException;
import java.io.InputStream;
import java.nio.channels.Channels;
import java.io.Serializable;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.coders.ByteArrayCoder;
import org.apache.beam.sdk.coders.Coder;
import org.apache.beam.sdk.coders.KvCoder;
import org.apache.beam.sdk.coders.StringUtf8Coder;
import org.apache.beam.sdk.coders.VarIntCoder;
import org.apache.beam.sdk.io.FileSystems;
import org.apache.beam.sdk.io.fs.MatchResult;
import org.apache.beam.sdk.io.fs.MetadataCoderV2;
import org.apache.beam.sdk.metrics.Counter;
import org.apache.beam.sdk.metrics.Metrics;
import org.apache.beam.sdk.transforms.Create;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.GroupByKey;
import org.apache.beam.sdk.transforms.Keys;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.transforms.View;
import org.apache.beam.sdk.transforms.WithKeys;
import org.apache.beam.sdk.transforms.join.CoGbkResult;
import org.apache.beam.sdk.transforms.join.CoGroupByKey;
import org.apache.beam.sdk.transforms.join.KeyedPCollectionTuple;
import org.apache.beam.sdk.util.CoderUtils;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.PCollectionTuple;
import org.apache.beam.sdk.values.TupleTag;
import org.apache.beam.sdk.values.TupleTagList;
import org.apache.beam.sdk.values.TypeDescriptors;

/**
 * The judge pipeline: match {@code <namespace>/*}{@code /summary.json} → spread the summaries over workers in shards →
 * read each summary's selection records and each one's spend (an unreadable summary becomes a problem, and the rest
 * goes on) and grade them within each grader's concurrency limit → group by namespace (its rows and their spend,
 * packed) → merge with judged.json → write it and the metric vector, and a result record for the command to print.
 * A shard that holds whole namespaces (as many namespaces as shards, or more) writes them itself, and nothing of
 * theirs reaches the grouping.
 */
public final class JudgePipeline {
  private JudgePipeline() {}

  /**
   * What a judge run needs on every worker: plain values.
   *
   * @param swept the namespaces h2beam swept, whose runs always carry a completion marker ({@link EvidenceCheck})
   */
  public record Config(Map<String, String> graders, Map<String, String> settings, List<String> modes, boolean bases,
      int concurrency, int timeoutSeconds, int shards, String resultsDir, List<String> swept, int repeats)
      implements Serializable {
    public Config {
      repeats = Math.max(1, repeats);
      graders = new TreeMap<>(graders);
      settings = new TreeMap<>(settings);
      modes = List.copyOf(modes);
      swept = List.copyOf(swept);
    }

    /**
     * The job's name among the judge jobs this JVM runs, under which its workers share their graders
     * ({@link OpenedGraders}): its results folder, which every judge run makes anew.
     */
    String job() {
      return resultsDir;
    }
  }

  /**
   * What a grading step sends a namespace's writer: its rows, and the spend of each (by {@link JudgedRow#key()}) as
   * the summary the row was graded from records it, so that the writer need not read every summary again; and, row
   * by row, the mask of the repeats whose grades were served from {@link KeptGrades} rather than made this run.
   */
  public record Graded(List<JudgedRow> rows, Map<String, MetricVector.Spend> spend, List<Integer> served)
      implements Serializable {
    public Graded {
      rows = List.copyOf(rows);
      spend = new TreeMap<>(spend);
      served = List.copyOf(served);
    }
  }

  /**
   * Each namespace's {@link Graded} leaves the grading step as bytes: the runner holds every namespace's until all
   * are graded, and a few byte arrays are cheaper to hold, copy and collect than a hundred thousand rows as objects.
   */
  static final Coder<Graded> GRADED = JsonCoder.of(Graded.class);

  static final TupleTag<KV<String, byte[]>> ROWS = new TupleTag<>() {};
  static final TupleTag<KV<String, String>> PROBLEMS = new TupleTag<>() {};

  public static Pipeline build(Pipeline p, Config c) {
    List<String> patterns = new ArrayList<>();
    for (String ns : c.graders().keySet()) patterns.add(Paths.get(ns).resolve("*").resolve("summary.json").toString());
    // the summaries' names, not their selections, are what crosses the grouping: the DirectRunner copies a key's
    // grouped values (through their coder) for every bundle that adds to them, and a name is cheap to copy
    PCollectionTuple graded = p
        .apply("Namespaces", Create.of(patterns).withCoder(StringUtf8Coder.of()))
        .apply("MatchSummaries", ListedFiles.of())
        .apply("AssignShards", WithKeys.of((MatchResult.Metadata m) -> shard(m.resourceId().toString(), c))
            .withKeyType(TypeDescriptors.integers()))
        .setCoder(KvCoder.of(VarIntCoder.of(), MetadataCoderV2.of()))
        .apply("SpreadOverWorkers", GroupByKey.create())
        .apply("ReadAndGrade", ParDo.of(new GradeFn(c)).withOutputTags(ROWS, TupleTagList.of(PROBLEMS)));
    PCollection<KV<String, byte[]>> rows =
        graded.get(ROWS).setCoder(KvCoder.of(StringUtf8Coder.of(), ByteArrayCoder.of()));
    PCollection<KV<String, String>> problems =
        graded.get(PROBLEMS).setCoder(KvCoder.of(StringUtf8Coder.of(), StringUtf8Coder.of()));
    TupleTag<byte[]> rowTag = new TupleTag<>() {};
    TupleTag<String> problemTag = new TupleTag<>() {};
    // fewer namespaces than shards are each written by one thread once all are graded (one namespace of 20,000
    // tasks: most of a second), while the DirectRunner's other threads would spin its monitor. They wait for the
    // grading's small output (its unreadable summaries, most often none), which is complete when its rows are.
    int spare = wholeNamespaces(c) ? 0 : SpareThreads.spare(p.getOptions(), c.graders().size());
    KeyedPCollectionTuple.of(rowTag, rows).and(problemTag, problems)
        .apply("GroupByNamespace", CoGroupByKey.create())
        .apply(WRITING, ParDo.of(new WriteJudgedFn(c, rowTag, problemTag, spare > 0)));
    if (spare > 0) {
      SpareThreads.hold(p, WRITING, spare, problems.apply("UnreadableNamespaces", Keys.create())
          .apply("AllGraded", View.asList()));
    }
    return p;
  }

  /** The step that writes a namespace graded in several shards ({@link SpareThreads}). */
  static final String WRITING = "MergeAndWrite";

  /** The namespace folder of a summary ({@code <namespace>/<task>/summary.json}). */
  static String namespaceOf(String summary) {
    return Paths.get(summary).getParent().getParent().toString();
  }

  /** Whether every namespace's summaries are graded in one shard ({@link #shard}): then that shard writes it. */
  static boolean wholeNamespaces(Config c) {
    return c.graders().size() >= c.shards();
  }

  /**
   * The shard a summary is graded in. With at least as many namespaces as shards, a namespace's summaries stay
   * together: the namespaces still spread over the shards, and each namespace's rows then reach its group in one
   * piece (rows of one namespace arriving from every shard would cost, on the DirectRunner, a copy of the
   * namespace's rows per shard). With fewer namespaces than shards, each summary is placed on its own, so that even
   * one namespace spreads over every shard.
   */
  static int shard(String summary, Config c) {
    String key = wholeNamespaces(c) ? namespaceOf(summary) : summary;
    return Math.floorMod(key.hashCode(), c.shards());
  }

  /**
   * Reads and grades one shard of summaries: an unreadable summary becomes a problem of its namespace and the rest
   * goes on. The shard's selections are graded by {@link GradingWorkers} (within each grader's process-wide limit,
   * whatever the runner's parallelism and the number of shards), and their rows emitted in the selections' order.
   * Every instance of this DoFn in one JVM shares the job's graders, which the last one torn down closes
   * ({@link OpenedGraders}).
   */
  static final class GradeFn
      extends DoFn<KV<Integer, Iterable<MatchResult.Metadata>>, KV<String, byte[]>> {
    private static final long serialVersionUID = 1L;
    private final Config c;
    private final Counter unreadable = Metrics.counter(GradeFn.class, "summaries_unreadable");
    private final Counter read = Metrics.counter(GradeFn.class, "summaries_read");
    private final Counter graded = Metrics.counter(GradeFn.class, "rows_graded");
    private final Counter ungraded = Metrics.counter(GradeFn.class, "rows_ungraded");
    private transient GradingWorkers workers;

    GradeFn(Config c) {
      this.c = c;
    }

    @Setup public void setup() {
      workers = GradingWorkers.of(c);
    }

    @Teardown public void teardown() {
      if (workers != null) workers.close();
      workers = null;
    }

    @ProcessElement public void process(@Element KV<Integer, Iterable<MatchResult.Metadata>> shard,
        MultiOutputReceiver out) throws Exception {
      List<SelectionItem> items = new ArrayList<>();
      Map<String, Map<String, MetricVector.Spend>> spend = new HashMap<>();
      // a shard that holds its namespaces whole writes them itself (below); else each namespace's problems and rows
      // go to its group
      Map<String, List<String>> problems = wholeNamespaces(c) ? new TreeMap<>() : null;
      for (MatchResult.Metadata summary : shard.getValue()) {
        items.addAll(selections(summary, spend, problems, out));
      }
      // one element per namespace of the shard, not one per row: the runner's grouping then keeps, looks up and copies
      // a namespace's rows as one value (per row, that bookkeeping cost more than the rows' coding)
      Map<String, List<JudgedRow>> byNamespace = new LinkedHashMap<>();
      Map<String, List<Integer>> servedBy = new HashMap<>();
      MetricVector.Seen[] seen = new MetricVector.Seen[items.size()];
      int[] served = new int[items.size()];
      List<JudgedRow> rows = workers.grade(items, seen, served);
      for (int i = 0; i < rows.size(); i++) {
        JudgedRow row = rows.get(i);
        (row.graded() ? graded : ungraded).inc();
        byNamespace.computeIfAbsent(row.namespace(), n -> new ArrayList<>()).add(row);
        servedBy.computeIfAbsent(row.namespace(), n -> new ArrayList<>()).add(served[i]);
        MetricVector.carry(spend.get(row.namespace()), row.key(), items.get(i).runDir(), seen[i]);
      }
      if (problems != null) {
        // every summary of these namespaces is in this shard: nothing of theirs needs the grouping, whose runner
        // held every namespace's rows, coded, until the last shard was graded (BENCHMARKS.md, issue 12)
        NamespaceWrite.whole(c, byNamespace, problems, spend, servedBy);
        return;
      }
      for (Map.Entry<String, List<JudgedRow>> e : byNamespace.entrySet()) {
        Graded g = new Graded(e.getValue(), spend.getOrDefault(e.getKey(), Map.of()), servedBy.get(e.getKey()));
        out.get(ROWS).output(KV.of(e.getKey(), CoderUtils.encodeToByteArray(GRADED, g)));
      }
    }

    /**
     * The selections of one summary to grade, with each one's spend added to {@code spend} (by namespace, then row
     * key); an unreadable summary is a problem of its namespace instead, added to {@code problems} (by namespace)
     * or, when that is null, emitted.
     */
    private List<SelectionItem> selections(MatchResult.Metadata file,
        Map<String, Map<String, MetricVector.Spend>> spend, Map<String, List<String>> problems,
        MultiOutputReceiver out) {
      String summary = file.resourceId().toString();
      String ns = namespaceOf(summary);
      try {
        byte[] bytes;
        try (InputStream in = Channels.newInputStream(FileSystems.open(file.resourceId()))) {
          bytes = TextFiles.readAll(in, file.sizeBytes());
        } catch (IOException e) {
          throw new IOException(cannotRead(summary, e), e);
        }
        // strict: bytes that are not UTF-8 are an error, not U+FFFD without a word
        String text = TextFiles.utf8(bytes, summary);
        String grader = c.graders().get(ns);
        JsonNode tree = Summaries.read(text);
        List<SelectionItem> items = c.bases() ? Summaries.bases(ns, grader, tree)
            : Summaries.selections(ns, grader, tree, c.modes());
        if (!c.bases()) spend.computeIfAbsent(ns, n -> new HashMap<>()).putAll(spendOf(summary, tree, items));
        boolean swept = c.swept().contains(ns);
        List<SelectionItem> marked = new ArrayList<>();
        for (SelectionItem i : items) marked.add(i.withMarkerRequired(swept));
        read.inc();
        return marked;
      } catch (IOException | RuntimeException e) {
        unreadable.inc();
        // a summary that does not parse is named with where it stopped and the fix, not Jackson's quote of it (dogAG
        // B6): the sweep run again moves such a summary aside and runs its task again
        String problem = summary + ": " + (e instanceof com.fasterxml.jackson.core.JsonProcessingException j
            ? "not valid JSON: " + Json.syntaxProblem(j) + "; restore it, or run the same sweep again, which moves it"
                + " aside and runs its task again" : e.getMessage());
        if (problems != null) problems.computeIfAbsent(ns, n -> new ArrayList<>()).add(problem);
        else out.get(PROBLEMS).output(KV.of(ns, problem));
        return List.of();
      }
    }
  }

  /**
   * Why {@code file} could not be opened or read, as its line says it: the system's reason without the path again
   * ({@code FileInputStream} gives {@code "<path> (Permission denied)"}, NIO the path alone), and for a permission
   * the fix, since the judge of a shared runs root may run as another user than the sweep's.
   */
  static String cannotRead(String file, IOException e) {
    String message = String.valueOf(e.getMessage());
    String reason = e instanceof java.nio.file.AccessDeniedException ? "Permission denied"
        : e instanceof java.nio.file.FileSystemException f && f.getReason() != null ? f.getReason()
        : message.startsWith(file + " (") && message.endsWith(")")
            ? message.substring(file.length() + 2, message.length() - 1) : message;
    String out = "cannot be read (" + reason + ")";
    if (!reason.equals("Permission denied")) return out;
    return out + ": this user may not read it or look into a folder above it (see ls -ld on each); its owner can"
        + " open it to this user's group (chmod g+rX), or judge as a user who can read it";
  }

  /**
   * The spend of each selection, by row key, where the metric vector would find it: a selection whose task names
   * another folder than its summary's (a legacy {@code task_id} in the selection) is left to the writer, which reads
   * that folder's summary as it does for rows of earlier runs.
   */
  static Map<String, MetricVector.Spend> spendOf(String summary, JsonNode tree, List<SelectionItem> items) {
    Map<String, MetricVector.Spend> out = new HashMap<>();
    Path folder = Paths.get(summary).getParent();
    for (SelectionItem i : items) {
      if (!folder.equals(Paths.get(i.namespace()).resolve(Namespace.slug(i.taskId())))) continue;
      out.put(JudgedRow.key(i.taskId(), i.mode(), i.k()), MetricVector.Spend.of(tree, i.mode()));
    }
    return out;
  }

  static final class WriteJudgedFn extends DoFn<KV<String, CoGbkResult>, Void> {
    private static final long serialVersionUID = 1L;
    private final Config c;
    private final TupleTag<byte[]> rowTag;
    private final TupleTag<String> problemTag;

    /** Whether the runner's spare threads are held while it writes: then so is a writer's own, once done. */
    private final boolean held;

    WriteJudgedFn(Config c, TupleTag<byte[]> rowTag, TupleTag<String> problemTag, boolean held) {
      this.c = c;
      this.rowTag = rowTag;
      this.problemTag = problemTag;
      this.held = held;
    }

    @ProcessElement public void process(@Element KV<String, CoGbkResult> group) throws Exception {
      if (held) SpareThreads.write(WRITING, () -> write(group));
      else write(group);
    }

    private void write(KV<String, CoGbkResult> group) throws IOException {
      String ns = group.getKey();
      List<JudgedRow> fresh = new ArrayList<>();
      Map<String, MetricVector.Spend> spend = new HashMap<>();
      List<Integer> served = new ArrayList<>();
      for (byte[] packed : group.getValue().getAll(rowTag)) {
        Graded g = CoderUtils.decodeFromByteArray(GRADED, packed);
        fresh.addAll(g.rows());
        spend.putAll(g.spend());
        served.addAll(g.served());
      }
      List<String> problems = new ArrayList<>();
      group.getValue().getAll(problemTag).forEach(problems::add);
      NamespaceWrite.write(c, ns, fresh, problems, spend, served);
    }
  }
}
