package dev.h2beam.pipelines;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The command line: subcommands by name, help for each, one exit-code convention. */
class MainTest {
  final ByteArrayOutputStream out = new ByteArrayOutputStream();
  final ByteArrayOutputStream err = new ByteArrayOutputStream();

  int run(String... args) {
    return Main.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8));
  }

  /**
   * A held key given where it does not belong (a flag's value) is not echoed in the error that names the flag, nor in
   * anything else printed: every line h2beam prints goes through {@link KeyFreeStream}.
   */
  @Test
  void aHeldKeyInAFlagIsNotEchoed() {
    String key = "sk-audit-7Q9xZ3kLmN5pR8tV2wY4";
    List<dev.h2beam.adapters.config.EnvKeys.Held> was = dev.h2beam.adapters.config.EnvKeys.use(
        java.util.Map.of("AUDIT_API_KEY", key));
    try {
      assertEquals(1, run("sweep", "--k=" + key));
      assertEquals(1, run("sweep", "--bench=demo", "--modes=" + key));
      String said = err.toString(StandardCharsets.UTF_8) + out.toString(StandardCharsets.UTF_8);
      assertTrue(said.contains("--k=[redacted key]"), said);
      assertTrue(said.contains("[redacted key]") && !said.contains("7Q9xZ3kL"), said);
      // printf, print(Object) and non-ASCII text pass through in the wrapped stream's encoding
      ByteArrayOutputStream bytes = new ByteArrayOutputStream();
      PrintStream free = KeyFreeStream.of(new PrintStream(bytes, true, StandardCharsets.UTF_8));
      free.printf("%s – %s%n", key, "²");
      free.println((Object) ("x" + key));
      assertEquals("[redacted key] – ²" + System.lineSeparator() + "x[redacted key]" + System.lineSeparator(),
          bytes.toString(StandardCharsets.UTF_8));
    } finally {
      dev.h2beam.adapters.config.EnvKeys.restore(was);
    }
  }

  /**
   * A Flink job ended by its cluster (restarts spent after lost TaskManagers, the JobManager gone) failed with the
   * runner's trace alone, saying neither what happened nor that finished work is kept (dogAC F3, F4). The chains are
   * shaped as Beam's Flink runner wraps them.
   */
  @Test
  void aFlinkJobEndedByItsClusterSaysWhatToDo() {
    RuntimeException spent = new RuntimeException("Pipeline execution failed", new org.apache.flink.util
        .FlinkException("Job execution failed.", new org.apache.flink.util.FlinkRuntimeException("Recovery is"
        + " suppressed by FixedDelayRestartBackoffTimeStrategy(maxNumberRestartAttempts=3, backoffTimeMS=1000)")));
    assertTrue(Main.flinkAdvice(spent).orElseThrow().startsWith("the Flink job failed after the last restart its"
        + " restart strategy allows"), Main.flinkAdvice(spent).toString());
    RuntimeException gone = new RuntimeException("Pipeline execution failed", new org.apache.flink.util
        .FlinkException("Could not retrieve the job status", new java.net.ConnectException("Connection refused")));
    assertTrue(Main.flinkAdvice(gone).orElseThrow().contains("the Flink cluster stopped answering")
        && Main.flinkAdvice(gone).orElseThrow().contains("re-run the same command to resume"));
    assertTrue(Main.flinkAdvice(new RuntimeException("x", new java.net.ConnectException("refused"))).isEmpty(),
        "not Flink's");
    int code = Main.failed("sweep", gone, new PrintStream(err, true, StandardCharsets.UTF_8));
    assertEquals(1, code);
    assertTrue(err.toString(StandardCharsets.UTF_8).contains("error: sweep: the Flink cluster stopped answering"),
        err.toString(StandardCharsets.UTF_8));
    java.util.regex.Matcher trace = java.util.regex.Pattern.compile("its Java trace: (/.*\\.trace)\\)")
        .matcher(err.toString(StandardCharsets.UTF_8));
    if (trace.find()) assertTrue(new java.io.File(trace.group(1)).delete());
  }

  /**
   * A job whose submission failed (the cluster stopped while the client sent the jar) was left to the exit, which
   * said it "has not ended": the command's advice says the submission failed, as Flink's client reports it.
   */
  @Test
  void aFailedSubmissionIsSaidToBeOne() {
    RuntimeException unsent = new RuntimeException("Pipeline execution failed", new org.apache.flink.client.program
        .ProgramInvocationException("Could not retrieve the execution result.", new org.apache.flink.runtime.client
        .JobSubmissionException(new org.apache.flink.api.common.JobID(), "Failed to submit JobGraph.",
        new java.net.ConnectException("Connection refused"))));
    assertTrue(Main.notSubmitted(unsent));
    assertTrue(Main.flinkAdvice(unsent).orElseThrow().startsWith("the submission of the Flink job failed: the"
        + " cluster refused it or stopped answering while this client sent it; once the cluster is up, re-run the"
        + " same command"), Main.flinkAdvice(unsent).toString());
    RuntimeException gone = new RuntimeException("Pipeline execution failed", new org.apache.flink.util
        .FlinkException("Could not retrieve the job status", new java.net.ConnectException("Connection refused")));
    assertTrue(!Main.notSubmitted(gone) && Main.flinkAdvice(gone).orElseThrow().startsWith("the Flink cluster"));
  }

  /**
   * A failure through Flink's client (here a worker's refusal, as the cluster hands it back) is one line: its trace,
   * the runner's and the cluster's wrapping, 47 to 124 lines above it (dogAC F9), goes to a file the line names,
   * without the keys h2beam holds.
   */
  @Test
  void aFailureThroughFlinkIsOneLineNamingItsTrace() throws Exception {
    String key = "sk-trace-7Q9xZ3kLmN5pR8tV2wY4";
    List<dev.h2beam.adapters.config.EnvKeys.Held> was = dev.h2beam.adapters.config.EnvKeys.use(
        java.util.Map.of("TRACE_API_KEY", key));
    try {
      IllegalStateException refusal = new IllegalStateException("the worker on host vm (pid 7195) does not see the"
          + " runs root the client wrote (" + key + ")");
      RuntimeException failed = new RuntimeException("Pipeline execution failed", new org.apache.flink.util
          .FlinkException("Job execution failed.", new org.apache.flink.runtime.execution
          .SuppressRestartsException(refusal)));
      assertEquals(1, Main.failed("sweep", failed, new PrintStream(err, true, StandardCharsets.UTF_8)));
      String said = err.toString(StandardCharsets.UTF_8);
      java.util.regex.Matcher m = java.util.regex.Pattern.compile("^error: sweep failed: the worker on host vm \\(pid"
          + " 7195\\) does not see the runs root the client wrote \\(.*\\) \\(its Java trace: (/.*\\.trace)\\)\n$")
          .matcher(said);
      assertTrue(m.matches(), said);
      java.nio.file.Path trace = java.nio.file.Path.of(m.group(1));
      try {
        String text = java.nio.file.Files.readString(trace);
        assertTrue(text.contains("SuppressRestartsException") && text.contains("\tat ") && !text.contains(key), text);
      } finally {
        java.nio.file.Files.delete(trace);
      }
    } finally {
      dev.h2beam.adapters.config.EnvKeys.restore(was);
    }
  }

  /**
   * A worker's refusal that quotes a storage state (a runs root read-only for one worker) is its own line, naming the
   * worker and the path: read as this client's full disk, it said "sweep failed (Read-only file system)" and no more.
   */
  @Test
  void aWorkersRefusalIsNotTakenForAFullDisk() {
    String why = "the worker on host vm (pid 8671) sees the runs root the client wrote but cannot write it:"
        + " /r/runs/.h2beam/write-probe-1 (Read-only file system). Every worker must be able to write /r/runs";
    RuntimeException failed = new RuntimeException("Pipeline execution failed", new org.apache.flink.util
        .FlinkException("Job execution failed.", new org.apache.flink.runtime.execution.SuppressRestartsException(
        new IllegalStateException(why))));
    assertEquals(1, Main.failed("sweep", failed, new PrintStream(err, true, StandardCharsets.UTF_8)));
    String said = err.toString(StandardCharsets.UTF_8);
    assertTrue(said.startsWith("error: sweep failed: " + why + " (its Java trace: /"), said);
    assertTrue(new java.io.File(said.replaceFirst("(?s).*its Java trace: (/[^)]*)\\).*", "$1")).delete(), said);
  }

  @Test
  void helpListsEverySubcommand() {
    assertEquals(0, run("--help"));
    String text = out.toString(StandardCharsets.UTF_8);
    for (String c : List.of("sweep", "judge", "report")) assertTrue(text.contains("  " + c + " "), text);
  }

  @Test
  void subcommandHelpListsItsOptionsWithDescriptionsAndDefaults() {
    assertEquals(0, run("judge", "--help"));
    String text = out.toString(StandardCharsets.UTF_8);
    assertTrue(text.contains("--graderConcurrency  (default 8)"), text);
    assertTrue(text.contains("--namespaces"), text);
    assertTrue(text.contains("--runner  (default DirectRunner)"), text);
    // the gated mode's names are those this classpath has, a plug-in's among them (dogY #15)
    out.reset();
    assertEquals(0, run("sweep", "--help"));
    text = out.toString(StandardCharsets.UTF_8);
    assertTrue(text.contains(" Found on this classpath: [improver] (a method's jar is added with"
        + " H2BEAM_EXTRA_CLASSPATH=<jar>)."), text);
    assertTrue(text.contains(" Found on this classpath: [always, pareto, score_comparison]."), text);
  }

  /**
   * A command's help leaves out the options it refuses and gives its own text for those whose defaults differ (dogR:
   * the demo listed --benchRoot, which it refuses, and the sweep's library default); every help ends with the exit
   * codes, the command's own among them.
   */
  @Test
  void aCommandsHelpHidesWhatItRefusesAndEndsWithItsExitCodes() {
    Command c = new Command() {
      @Override public String name() {
        return "probe";
      }

      @Override public String summary() {
        return "a probe";
      }

      @Override public Class<? extends org.apache.beam.sdk.options.PipelineOptions> options() {
        return dev.h2beam.pipelines.sweep.SweepOptions.class;
      }

      @Override public java.util.Set<String> hiddenOptions() {
        return java.util.Set.of("benchRoot");
      }

      @Override public java.util.Map<String, String> descriptions() {
        return java.util.Map.of("runsRoot", "the probe's own runs root");
      }

      @Override public String exitCodes() {
        return "7 probed";
      }

      @Override public int run(String[] args) {
        return 0;
      }
    };
    Main.printHelp(c, new PrintStream(out, true, StandardCharsets.UTF_8));
    String text = out.toString(StandardCharsets.UTF_8);
    assertTrue(!text.contains("--benchRoot") && text.contains("--benchSettings"), text);
    assertTrue(text.contains("  --runsRoot\n      the probe's own runs root\n"), text);
    assertTrue(text.strip().endsWith("exit codes: 0 done; 1 refused or failed (the error line says why); 7 probed; 130,"
        + " 143 stopped by Ctrl-C or SIGTERM (README, \"Exit codes\")"), text);
  }

  /** A command that runs no pipeline does not list the runner's options. */
  @Test
  void setupAndCheckHelpLeaveTheRunnerOut() {
    for (String c : List.of("setup", "check")) {
      out.reset();
      assertEquals(0, run(c, "--help"));
      String text = out.toString(StandardCharsets.UTF_8);
      assertTrue(text.startsWith("h2beam " + c + ": ") && !text.contains("--runner")
          && !text.contains("--targetParallelism"), text);
    }
  }

  @Test
  void anUnknownSubcommandExitsOneNamingTheKnownOnes() {
    assertEquals(1, run("sweeep"));
    assertTrue(err.toString(StandardCharsets.UTF_8).contains("unknown subcommand 'sweeep'; did you mean sweep?"),
        err.toString(StandardCharsets.UTF_8));
  }

  @Test
  void aUsageErrorExitsOneWithItsMessage() {
    assertEquals(1, run("sweep", "--bench=nope"));
    assertTrue(err.toString(StandardCharsets.UTF_8).startsWith("error: --bench=nope is not a known benchmark"));
  }

  @Test
  void theDirectRunnerChecksAreOffOnTheCommandLineUnlessAskedFor() {
    assertTrue(List.of(Main.directDefaults(new String[] {})).contains("--enforceImmutability=false"));
    assertTrue(List.of(Main.directDefaults(new String[] {"--enforceImmutability=true"}))
        .contains("--enforceImmutability=true"));
    assertTrue(List.of(Main.directDefaults(new String[] {"--runner=FlinkRunner"})).contains("--fasterCopy=true"));
  }

  /**
   * A failure's last line is what it comes down to: a worker's refusal, wrapped in the runner's and the cluster's
   * exceptions, by its message alone; a cause h2beam did not throw, as the JVM names it.
   */
  @Test
  void aFailuresLastLineNamesItsInnermostCause() {
    IllegalStateException refusal = new IllegalStateException("the worker on host h has no KEY in its environment");
    Exception wrapped = new RuntimeException("Pipeline execution failed",
        new Exception("Job failed", new RuntimeException(refusal.toString(), refusal)));
    assertEquals("the worker on host h has no KEY in its environment", Main.innermost(wrapped));
    IllegalArgumentException jdk = assertThrows(IllegalArgumentException.class, () -> URI.create("a b"));
    assertEquals("java.net.URISyntaxException: Illegal character in path at index 1: a b",
        Main.innermost(new RuntimeException("Pipeline execution failed", jdk)));
  }

  /**
   * A full disk is no bug: one line naming the file and saying that a re-run resumes, no trace; a genuine failure
   * still prints its trace above its last line.
   */
  @Test
  void aFullDiskIsOneLineNamingTheFileAndTheResume() {
    java.nio.file.FileSystemException full =
        new java.nio.file.FileSystemException("/r/ns/t/summary.agg.json", null, "No space left on device");
    PrintStream stream = new PrintStream(err, true, StandardCharsets.UTF_8);
    assertEquals(1, Main.failed("sweep", new org.apache.beam.sdk.Pipeline.PipelineExecutionException(
        new java.io.IOException(full.toString(), full)), stream));
    assertEquals("error: sweep could not write /r/ns/t/summary.agg.json (No space left on device): free space and"
        + " re-run the same command; finished work is kept and resumed\n", err.toString(StandardCharsets.UTF_8));
    err.reset();
    assertEquals(1, Main.failed("judge", new RuntimeException(new java.io.IOException("No space left on device")),
        stream));
    assertEquals("error: judge ran out of disk space (No space left on device): free space and re-run the same"
        + " command; finished work is kept and resumed\n", err.toString(StandardCharsets.UTF_8));
    err.reset();
    assertEquals(1, Main.failed("report", new RuntimeException(new IllegalStateException("a bug")), stream));
    String bug = err.toString(StandardCharsets.UTF_8);
    assertTrue(bug.contains("\tat ") && bug.endsWith("error: report failed: a bug\n"),
        bug);
  }
}
