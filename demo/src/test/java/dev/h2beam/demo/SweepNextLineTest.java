package dev.h2beam.demo;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.h2beam.pipelines.sweep.SweepCommand;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The sweep's last line, the judge to run next, runs where the sweep ran: it repeats the runner's options the user
 * gave (dogAC F9: a cluster sweep suggested a judge without its Flink flags, which judged on the DirectRunner).
 */
class SweepNextLineTest {
  @Test
  void theJudgeToRunNextRepeatsTheRunnerTheSweepWasGiven(@TempDir Path tmp) throws Exception {
    Path runs = tmp.resolve("runs");
    PrintStream was = System.out;
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
    try {
      assertEquals(0, new SweepCommand().run(new String[] {"--bench=synthetic", "--benchSettings={\"domains\": 1,"
          + " \"tasksPerDomain\": 1}", "--k=1", "--modes=parallel", "--benchRoot=" + tmp.resolve("bench"),
          "--runsRoot=" + runs, "--sessionRetryWaitSeconds=0", "--runner=DirectRunner"}));
    } finally {
      System.setOut(was);
    }
    List<String> next = out.toString(StandardCharsets.UTF_8).lines().filter(l -> l.startsWith("next:")).toList();
    assertEquals(List.of("next:   ./h2beam judge --namespaces=" + runs.resolve("synthetic-oc-agg1")
        + " --modes=parallel --runner=DirectRunner"), next);
  }
}
