package dev.h2beam.pipelines;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * Every option error names the flag, the value and the expected form, on one line and without a stack trace,
 * whichever command reads it.
 */
class OptionArgsTest {

  /**
   * A next command printed after a cluster run repeats where it ran (dogAC F9: the sweep's judge line left out the
   * Flink flags, and pasted, it judged on the DirectRunner): the options the user gave, quoted for a shell; those the
   * command line's defaults add are its own again.
   */
  @Test
  void theFlagsThatSayWhereACommandRanAreRepeatedQuoted() {
    String[] args = Main.directDefaults(new String[] {"--bench=synthetic", "--runner=FlinkRunner",
        "--flinkMaster=127.0.0.1:33417", "--filesToStage=/opt/h2 beam/cluster.jar", "--parallelism=4", "--k=2"});
    assertEquals(" --runner=FlinkRunner --flinkMaster=127.0.0.1:33417 '--filesToStage=/opt/h2 beam/cluster.jar'"
        + " --parallelism=4", OptionArgs.whereFlags(args));
    assertEquals(" '--flinkMaster=[local]'", OptionArgs.whereFlags(new String[] {"--flinkMaster=[local]"}));
    assertEquals("", OptionArgs.whereFlags(Main.directDefaults(new String[] {"--bench=demo"})));
  }

  /** What {@code h2beam args...} printed to stderr; asserts exit 1 and no stack trace. */
  static String refused(String... args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int exit = Main.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8));
    String text = err.toString(StandardCharsets.UTF_8);
    assertEquals(1, exit, text);
    assertEquals(1, text.lines().count(), "one line: " + text);
    assertFalse(text.contains("Exception") || text.contains("\tat ") || text.contains("null"), text);
    return text.strip();
  }

  @Test
  void aJobIsNamedAfterItsCommandUnlessTheCommandLineNamesIt() {
    String job = OptionArgs.parse("judge", new String[] {"--namespaces=/tmp/x"},
        dev.h2beam.pipelines.judge.JudgeOptions.class).getJobName();
    assertTrue(job.startsWith("h2beam-judge-"), job);
    assertEquals("mine", OptionArgs.parse("judge", new String[] {"--namespaces=/tmp/x", "--jobName=mine"},
        dev.h2beam.pipelines.judge.JudgeOptions.class).getJobName());
  }

  @Test
  void aFlinkRunnersOptionWithoutTheFlinkRunnerIsRefusedNotIgnored() {
    String alone = refused("sweep", "--bench=demo", "--flinkMaster=127.0.0.1:8081");
    assertTrue(alone.startsWith("error: --flinkMaster=127.0.0.1:8081 is an option of the FlinkRunner, and this command"
        + " runs on the DirectRunner (the default), which would ignore it: add --runner=FlinkRunner"), alone);
    String other = refused("judge", "--runner=DirectRunner", "--parallelism=3");
    assertTrue(other.startsWith("error: --parallelism=3 is an option of the FlinkRunner, and this command runs on"
        + " DirectRunner"), other);
    // with the runner named, the same option is read (here refused only for the master nobody answers at)
    String flink = refused("sweep", "--bench=demo", "--runner=FlinkRunner", "--flinkMaster=127.0.0.1:1");
    assertFalse(flink.contains("is an option of the FlinkRunner"), flink);
  }

  @Test
  void aNonNumberForANumberOptionNamesTheFlagTheValueAndTheForm() {
    assertEquals("error: --k=abc is not valid; expected a whole number, e.g. --k=2",
        refused("sweep", "--bench=demo", "--k=abc"));
    assertEquals("error: --graderConcurrency=8x is not valid; expected a whole number, e.g. --graderConcurrency=2",
        refused("judge", "--graderConcurrency=8x"));
    assertEquals("error: --minEffect=lots is not valid; expected a number, e.g. --minEffect=5.0",
        refused("report", "--minEffect=lots"));
    assertEquals("error: --seed=7.5 is not valid; expected a whole number of any size, e.g. --seed=7",
        refused("sweep", "--seed=7.5"));
    assertEquals("error: --graderConcurrency=99999999999 is out of range; expected a whole number from -2147483648 to"
        + " 2147483647, e.g. --graderConcurrency=2", refused("judge", "--graderConcurrency=99999999999"));
    assertEquals("error: --dryRun=maybe is not valid; expected true or false, e.g. --dryRun=true (or just"
        + " --dryRun)", refused("sweep", "--dryRun=maybe"));
  }

  /** harness2's --seed is a Python int of any size, and so is h2beam's: read exactly, by Beam and without it. */
  @Test
  void aSeedWiderThanALongIsReadExactly() {
    String[] args = {"--bench=demo", "--seed=-99999999999999999999999"};
    java.math.BigInteger seed = new java.math.BigInteger("-99999999999999999999999");
    assertEquals(seed, OptionArgs.parse("sweep", args, dev.h2beam.pipelines.sweep.SweepOptions.class).getSeed());
    assertEquals(seed, OptionArgs.parseLazily("sweep", args, dev.h2beam.pipelines.sweep.SweepOptions.class)
        .getSeed());
  }

  @Test
  void anEmptyNumberIsAValuelessFlag() {
    assertEquals("error: --maxTasks= has no value; expected a whole number, e.g. --maxTasks=2",
        refused("sweep", "--bench=demo", "--maxTasks="));
  }

  /** {@code --k 2} (a value after a space, as many tools take it) is told how h2beam takes it. */
  @Test
  void aValueAfterASpaceIsNotReadAndTheMessageSaysSo() {
    assertEquals("error: --k has no value; give it as --k=VALUE (a value after a space is not read), expected a"
        + " whole number, e.g. --k=2", refused("sweep", "--bench=demo", "--k"));
  }

  @Test
  void aRepeatedFlagIsRefusedNamingBothValues() {
    assertEquals("error: --k is given twice (--k=1 and --k=2); give it once",
        refused("sweep", "--bench=demo", "--k=1", "--k=2"));
    assertEquals("error: --bench is given twice (--bench=demo and --bench=folder); give it once",
        refused("check", "--bench=demo", "--bench=folder"));
  }

  @Test
  void aValuelessTextFlagSaysWhatItTakesInsteadOfBecomingTrue() {
    assertEquals("error: --bench has no value; give it as --bench=VALUE (a value after a space is not read), expected"
        + " --bench=VALUE: Benchmark to sweep, by name (e.g. demo).", refused("sweep", "--bench"));
  }

  @Test
  void anUnknownFlagIsNamedWithTheNearestKnownOne() {
    assertEquals("error: --Bench is not an option of h2beam sweep; did you mean --bench? (h2beam sweep --help lists"
        + " every option)", refused("sweep", "--Bench=demo"));
    assertEquals("error: --namespace is not an option of h2beam report; did you mean --namespaces? (h2beam report"
        + " --help lists every option)", refused("report", "--namespace=runs/x"));
    assertEquals("error: --frobnicate is not an option of h2beam judge (h2beam judge --help lists every option)",
        refused("judge", "--frobnicate=1"));
  }

  @Test
  void anArgumentThatIsNotAnOptionIsRefused() {
    assertEquals("error: 'k=2' is not an option: write each option as --name=value (h2beam sweep --help lists"
        + " every option)", refused("sweep", "k=2"));
  }

  @Test
  void beamsOwnOptionsAreKnownAndChecked() {
    assertEquals("error: --targetParallelism=many is not valid; expected a whole number of at least 1, e.g."
        + " --targetParallelism=2", refused("judge", "--targetParallelism=many"));
    assertEquals("error: --stableUniqueNames=x is not valid; expected one of [OFF, WARNING, ERROR], e.g."
        + " --stableUniqueNames=OFF", refused("judge", "--stableUniqueNames=x"));
  }

  @Test
  void aRefusalBeamFindsIsStillOneLineNamingTheCommand() {
    assertEquals("error: h2beam judge refused its options: Unknown 'runner' specified 'Nowhere', supported pipeline"
        + " runners [DirectRunner, FlinkRunner, TestFlinkRunner] (h2beam judge --help lists every option)",
        refused("judge", "--runner=Nowhere"));
    // on the launcher's classpath without Flink, Beam lists the DirectRunner alone
    assertEquals("Unknown 'runner' specified 'Nowhere', supported pipeline runners [DirectRunner]; FlinkRunner too,"
        + " when the command line names it (--runner=FlinkRunner: the launcher then adds Flink's jars)",
        OptionArgs.withFlinkHint("Unknown 'runner' specified 'Nowhere', supported pipeline runners [DirectRunner]"));
  }

  @Test
  void aParallelismOfZeroIsRefusedInsteadOfEndingInErrorNull() {
    assertEquals("error: --targetParallelism=0 is too small; expected a whole number of at least 1, e.g."
        + " --targetParallelism=2", refused("judge", "--namespaces=x", "--targetParallelism=0"));
  }
}
