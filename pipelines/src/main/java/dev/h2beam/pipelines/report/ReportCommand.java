package dev.h2beam.pipelines.report;

import dev.h2beam.adapters.files.AtomicFiles;
import dev.h2beam.adapters.files.Json;
import dev.h2beam.adapters.files.Scratch;
import dev.h2beam.adapters.files.WriterLock;
import dev.h2beam.pipelines.BeamRegistry;
import dev.h2beam.pipelines.Command;
import dev.h2beam.pipelines.DirectThreads;
import dev.h2beam.pipelines.FolderFlags;
import dev.h2beam.pipelines.LazyOptions;
import dev.h2beam.pipelines.OptionArgs;
import dev.h2beam.pipelines.UsageError;
import dev.h2beam.pipelines.sweep.JobWatch;
import dev.h2beam.pipelines.sweep.WriterLocks;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.beam.sdk.PipelineResult;
import org.apache.beam.sdk.options.PipelineOptions;

/**
 * {@code h2beam report}: the read-only report over judged namespaces. Prints the text report (also written to
 * report.txt beside report.html); exits 0, or 1 with a message when nothing is to be reported (an earlier report in
 * the output folder is then left as it was).
 */
public final class ReportCommand implements Command {

  @Override public String name() {
    return "report";
  }

  @Override public String summary() {
    return "report judged namespaces: harness2's lines and warnings, replicates, the paired comparison, HTML";
  }

  @Override public Class<? extends PipelineOptions> options() {
    return ReportOptions.class;
  }

  @Override public Map<String, String> defaults() {
    return Map.of("k", "every k found", "bench", "the namespaces' benchmark", "minEffect", "5.0",
        "objectives", "score:max:<minEffect>,cost:min:0.01,mode_tokens:min:1000",
        "output", "<parent of the first namespace>/_report (_report-versus-<other root> with --versus)");
  }

  @Override public int run(String[] args) throws Exception {
    return run(args, System.out, System.err);
  }

  /** Runs the report; the text goes to {@code out} as UTF-8 bytes, the nothing-to-report message to {@code err}. */
  public int run(String[] args, PrintStream out, PrintStream err) throws Exception {
    // a report always builds a pipeline: Beam's registry is built while the plan is made and, on the DirectRunner,
    // the namespaces are read ahead (the options read without it where the command line is plain, as the judge's)
    BeamRegistry.ahead();
    ReportOptions o = OptionArgs.parseLazily(name(), args, ReportOptions.class);
    FolderFlags.entries(o, "--namespaces", o.getNamespaces(), "runs/demo/runs/demo-oc-agg2");
    FolderFlags.entries(o, "--versus", o.getVersus(), "runs/other/runs/demo-oc-agg2");
    FolderFlags.written(o, "--output", o.getOutput(), "runs/demo/report");
    ReportSettings s = ReportPlan.settings(o.getNamespaces(), o.getModes(), o.getK(), o.getBench(),
        o.getDisclosure(), o.getMinEffect(), o.getObjectives(), o.getVersus(), o.getOutput(),
        Path.of("").toAbsolutePath());
    Path dir = Path.of(s.output());
    // one report at a time writes a folder: two at once would leave report.txt of one beside report.html of the other
    try (WriterLocks lock = WriterLocks.of(List.of(dir), "report", o.getLockWaitSeconds())) {
      return runLocked(o, s, dir, out, err);
    }
  }

  private int runLocked(ReportOptions o, ReportSettings s, Path dir, PrintStream out, PrintStream err)
      throws Exception {
    // a report writes over its own earlier files only: a folder holding files of those names that no report wrote is
    // refused before anything in it is touched (those of a report stopped while writing them its record claims)
    List<String> foreign = ReportFiles.notWrittenByAReport(dir);
    if (!foreign.isEmpty()) {
      throw new UsageError("--output=" + dir + " holds " + String.join(", ", foreign) + ", which no h2beam report"
          + " wrote (there is no report.json record of one beside them), and a report writes files of those names:"
          + " give --output a folder of its own, or move them away");
    }
    // a judge writing one of the namespaces now: this report reads the judged.json it had before, whole (the judge
    // replaces it in one move), and says so rather than passing a figure that is about to change as the latest
    for (NamespaceRef ns : s.read()) {
      WriterLock.holder(Path.of(ns.dir())).ifPresent(h -> err.println("note: " + ns.dir() + " is being written by "
          + h + "; this report reads its judged.json as it was before that began: report again once it has ended"));
    }
    // the lock is ours: what a killed report left (its scratch folder, its files' temps) is nobody's now
    Scratch.clean(dir);
    AtomicFiles.removedMessage(AtomicFiles.removeLeftovers(dir, ReportFiles.OWN_FILES), "report")
        .ifPresent(err::println);
    // what the folder reported before, to say so when this report replaces a report of other namespaces (dogAK F9)
    List<String> before = ReportFiles.holdsReport(dir) ? ReportFiles.reported(dir) : List.of();
    if (ReportFiles.interrupted(dir)) {
      err.println("h2beam: " + dir + " holds the files of a report that was stopped while writing them (its "
          + ReportFiles.RECORD + " says \"" + ReportFiles.WRITING + "\"); this report replaces them");
    }
    // this run's record comes back in a folder of its own: with nothing to report, the folder's report.json stays
    // the earlier report's. Beside the output, not in /tmp: on a cluster the writer is another host's process.
    Path scratch = Scratch.newDir(Scratch.of(dir), "h2beam-report-");
    Map<String, Object> record;
    // on the DirectRunner the reading step runs in this JVM: the namespaces are read while the pipeline is built
    String ahead = DirectThreads.isDirect(o)
        ? ReadAhead.start(s.read().stream().map(NamespaceRef::dir).toList()) : null;
    try {
      Path runRecord = scratch.resolve(ReportFiles.RECORD);
      // a namespace per bundle, then one bundle writes the report
      DirectThreads.fit(o, 1, s.read().size());
      PipelineResult result = JobWatch.runToEnd(ReportPipeline.build(s, LazyOptions.beam(o), runRecord.toString(),
          ahead));
      PipelineResult.State state = result.waitUntilFinish();
      if (state != PipelineResult.State.DONE) throw new IllegalStateException("the report pipeline ended " + state);
      record = Json.readMap(runRecord);
    } finally {
      ReadAhead.end(ahead);
      Scratch.delete(scratch);
      removeIfEmpty(Scratch.of(dir));
    }
    if (!"reported".equals(record.get("status"))) {
      String console = String.valueOf(record.get("console"));
      if (!console.isEmpty()) print(out, console + "\n");
      err.println(record.get("message"));
      if (ReportFiles.holdsReport(dir)) err.println(dir + " keeps the earlier report, unchanged");
      return 1;
    }
    print(out, ReportFiles.read(dir.resolve(ReportFiles.TEXT)));
    @SuppressWarnings("unchecked")
    List<String> files = (List<String>) record.get("files");
    out.println();
    out.println("wrote " + dir + ": " + String.join(", ", files));
    List<String> now = ReportFiles.reported(dir);
    if (!before.isEmpty() && !before.equals(now)) {
      out.println("  it replaced the report there of " + ReportFiles.named(before) + "; give each report its own"
          + " --output to keep both");
    }
    return 0;
  }

  /** Removes the scratch folder when nothing else is left in it. */
  private static void removeIfEmpty(Path dir) throws IOException {
    try {
      Files.deleteIfExists(dir);
    } catch (DirectoryNotEmptyException e) {
      // not ours to empty
    }
  }

  private static void print(PrintStream out, String text) {
    out.write(text.getBytes(StandardCharsets.UTF_8), 0, text.getBytes(StandardCharsets.UTF_8).length);
    out.flush();
  }
}
