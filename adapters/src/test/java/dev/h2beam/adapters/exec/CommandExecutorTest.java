package dev.h2beam.adapters.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.h2beam.adapters.config.Endpoint;
import dev.h2beam.adapters.config.ResolvedRole;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CommandExecutorTest {
  private static final String SECRET = "h2beam-test-secret-7f3a";

  @TempDir Path tmp;
  Path harness;
  Path source;
  Path runDir;
  Map<String, String> env;

  @BeforeEach
  void setUp() throws Exception {
    harness = Files.createDirectories(tmp.resolve("harness"));
    Files.writeString(harness.resolve("AGENTS.md"), "Answer in answer.md.\n");
    Files.createDirectories(harness.resolve("scripts"));
    Files.writeString(harness.resolve("scripts/count.sh"), "#!/bin/sh\nwc -l < \"$1\"\n");
    Files.setPosixFilePermissions(harness.resolve("scripts/count.sh"), PosixFilePermissions.fromString("rwxr-xr-x"));
    source = Files.createDirectories(tmp.resolve("src"));
    Files.writeString(source.resolve("ledger.csv"), "amount\n1\n2\n");
    runDir = Files.createDirectories(tmp.resolve("runs/t1/r1"));
    env = new LinkedHashMap<>();
    env.put("PATH", System.getenv("PATH"));
    env.put("LANG", "C.UTF-8");
    env.put("H2BEAM_TEST_SECRET", SECRET);
    env.put("AGENT_SETTING", "allowed-value");
    env.put("ENDPOINT_KEY", "key-value");
  }

  private Executor open(Map<String, Object> settings, Optional<ResolvedRole> role) throws Exception {
    return ExecutorProvider.named("command").open(settings, role, env);
  }

  private Executor open(String command) throws Exception {
    return open(Map.of("command", command), Optional.empty());
  }

  /** An executor command written with a held key's value is refused naming its variable (dogAB 1). */
  @Test
  void aCommandHoldingAHeldKeyIsRefusedNamingItsVariable() {
    String key = "sk-dogab-7Q9xK2mLp4Rt8Vw3Yz6Bn1Hc5Jd0FgX";
    List<dev.h2beam.adapters.config.EnvKeys.Held> was = dev.h2beam.adapters.config.EnvKeys.use(
        Map.of("LAB_API_KEY", key));
    try {
      Exception e = assertThrows(Exception.class, () -> open("my-agent --key " + key + " --out {output}"));
      assertTrue(e.getMessage().contains("holds the value of $LAB_API_KEY") && !e.getMessage().contains("7Q9xK2mL"),
          e.getMessage());
    } finally {
      dev.h2beam.adapters.config.EnvKeys.restore(was);
    }
  }

  private ExecRequest request(Duration timeout) {
    return new ExecRequest("ledger/t1", "Sum the amounts.", source, harness, runDir, "answer.md", timeout);
  }

  private ExecRequest request() {
    return request(Duration.ofSeconds(60));
  }

  private String read(String rel) throws Exception {
    return Files.readString(runDir.resolve(rel), StandardCharsets.UTF_8);
  }

  @Test
  void theWorkspaceHoldsTheHarnessAtItsRootAndTheTaskBesideIt() throws Exception {
    ExecResult r = open("sh scripts/count.sh source/ledger.csv > {output}/answer.md; cp task.md {output}/seen.md")
        .run(request());
    assertTrue(r.ok(), r.error());
    assertEquals(0, r.exit());
    assertEquals("", r.errorClass());
    assertNull(r.inputTokens());
    assertNull(r.outputTokens());
    assertEquals(0.0, r.costUsd());
    assertEquals("Answer in answer.md.\n", read("workspace/AGENTS.md"));
    assertTrue(Files.isExecutable(runDir.resolve("workspace/scripts/count.sh")));
    assertEquals("Sum the amounts.", read("workspace/task.md"));
    assertEquals("amount\n1\n2\n", read("workspace/source/ledger.csv"));
    assertEquals("3", read("output/answer.md").strip(), "the deliverable is what the agent left in output/");
    assertEquals("Sum the amounts.", read("output/seen.md"));
    assertTrue(Files.isRegularFile(runDir.resolve("stdout.txt")));
    assertTrue(Files.isRegularFile(runDir.resolve("stderr.txt")));
    String traj = read("trajectory.md");
    assertTrue(traj.contains("[USER] Sum the amounts.\n"), traj);
    assertTrue(traj.contains("[ACTION] shell: sh scripts/count.sh"), traj);
    assertTrue(traj.contains("[OBSERVATION] (no output)\n"), traj);
    assertTrue(traj.contains("[EXIT] 0\n"), traj);
    assertTrue(traj.contains("output/ holds answer.md, seen.md"), traj);
  }

  @Test
  void placeholdersArePathsQuotedForTheShell() throws Exception {
    runDir = Files.createDirectories(tmp.resolve("it's a run dir"));
    ExecResult r = open("printf '%s\\n' {workspace} {task_dir} {harness} {output} > {output}/paths.txt").run(request());
    assertTrue(r.ok(), r.error());
    String ws = runDir.resolve("workspace").toString();
    assertEquals(List.of(ws, ws, ws, runDir.resolve("output").toString()),
        Files.readAllLines(runDir.resolve("output/paths.txt")));
  }

  @Test
  void aTimeoutKillsTheAgentAndEverythingItStarted() throws Exception {
    ExecResult r = open(Map.of("command", "sleep 300 & echo $! > {output}/bg.pid; wait", "timeout_seconds", 1),
        Optional.empty()).run(request(Duration.ofHours(1)));
    assertEquals("timeout", r.errorClass());
    assertNull(r.exit());
    assertTrue(r.error().contains("1 s"), r.error());
    long bg = Long.parseLong(read("output/bg.pid").strip());
    assertFalse(ProcessGroup.live(bg), "the agent's background job is still running");
    assertTrue(read("trajectory.md").contains("[ERROR] `sh -c 'sleep 300 & echo $! > "), read("trajectory.md"));
  }

  @Test
  void aRunWhoseOutputWasCutIsAFailureEvenWithExitZero() throws Exception {
    // what ProcessRunner reports when a process outside the group held the output open past the grace
    Files.writeString(runDir.resolve("stdout.txt"), "partial");
    Files.writeString(runDir.resolve("stderr.txt"), "");
    ProcessResult cut = new ProcessResult(0, false, false, 0.5, 7, 0, false, false, runDir.resolve("stdout.txt"),
        runDir.resolve("stderr.txt"), true);
    ExecResult r = CommandExecutor.outcome(runDir, "sh run.sh", Duration.ofSeconds(60), cut,
        new CommandTrajectory());
    assertFalse(r.ok(), "a cut run must not be marked complete: FolderBenchmark marks only ok() rollouts");
    assertEquals("output-cut", r.errorClass());
    assertTrue(r.error().contains("could not be read to its end"), r.error());
    ProcessResult whole = new ProcessResult(0, false, false, 0.5, 7, 0, false, false, runDir.resolve("stdout.txt"),
        runDir.resolve("stderr.txt"), false);
    assertTrue(CommandExecutor.outcome(runDir, "sh run.sh", Duration.ofSeconds(60), whole, new CommandTrajectory())
        .ok());
  }

  @Test
  void aNonZeroExitCarriesTheStatusAndTheStderrTail() throws Exception {
    ExecResult r = open("echo working; echo 'model refused the request' >&2; exit 4").run(request());
    assertEquals("exit", r.errorClass());
    assertEquals(4, r.exit());
    assertTrue(r.error().contains("exited with 4"), r.error());
    assertTrue(r.error().contains("model refused the request"), r.error());
    assertTrue(r.error().contains("`sh -c 'echo working; echo '\\''model"), "names the command, quoted: " + r.error());
    String traj = read("trajectory.md");
    assertTrue(traj.contains("[OBSERVATION] working\n"), traj);
    assertTrue(traj.contains("[STDERR] model refused the request\n"), traj);
    assertTrue(traj.contains("[EXIT] 4\n"), traj);
  }

  @Test
  void aLongObservationKeepsItsEndAndSaysWhatWasClipped() throws Exception {
    ExecResult r = open("seq 1 3000").run(request());
    assertTrue(r.ok(), r.error());
    String traj = read("trajectory.md");
    assertTrue(traj.contains("[OBSERVATION] …(+"), traj);
    assertTrue(traj.contains(" chars — render truncation)\n"), traj);
    assertTrue(traj.contains("\n3000\n[EXIT] 0\n"), traj);
    assertFalse(traj.contains("\n1\n"), "the start of the output is clipped");
  }

  @Test
  void aSymlinkInTheHarnessIsNotFollowedAndIsReported() throws Exception {
    Path outside = Files.writeString(tmp.resolve("outside.txt"), "private notes");
    Files.createSymbolicLink(harness.resolve("notes.md"), outside);
    Files.createSymbolicLink(harness.resolve("elsewhere"), tmp);
    ExecResult r = open("ls -A > {output}/listing.txt").run(request());
    assertTrue(r.ok(), r.error());
    assertFalse(Files.exists(runDir.resolve("workspace/notes.md"), java.nio.file.LinkOption.NOFOLLOW_LINKS));
    assertFalse(Files.exists(runDir.resolve("workspace/elsewhere"), java.nio.file.LinkOption.NOFOLLOW_LINKS));
    String traj = read("trajectory.md");
    assertTrue(traj.contains("[HARNESS] skipped elsewhere: a symbolic link, not followed\n"), traj);
    assertTrue(traj.contains("[HARNESS] skipped notes.md: a symbolic link, not followed\n"), traj);
  }

  @Test
  void aSecretThatIsNotAllowedNeverReachesTheAgentNorTheRunDir() throws Exception {
    Endpoint ep = new Endpoint("local", "http://127.0.0.1:9/v1", "ENDPOINT_KEY", 1, 60, 1, 0, 0);
    ResolvedRole role = new ResolvedRole("executor", ep, "tiny-model", null, null);
    ExecResult r = open(Map.of("command", "env > {output}/env.txt; env; env >&2", "env_allow",
        List.of("AGENT_SETTING")), Optional.of(role)).run(request());
    assertTrue(r.ok(), r.error());
    Map<String, String> seen = new LinkedHashMap<>();
    for (String line : Files.readAllLines(runDir.resolve("output/env.txt"))) {
      seen.put(line.substring(0, line.indexOf('=')), line.substring(line.indexOf('=') + 1));
    }
    assertFalse(seen.containsKey("H2BEAM_TEST_SECRET"));
    assertEquals("allowed-value", seen.get("AGENT_SETTING"));
    // the key variable holds the run's relay's token, which the relay replaces with the key on each call
    assertTrue(seen.get("ENDPOINT_KEY").startsWith("h2beam-relay-"), seen.get("ENDPOINT_KEY"));
    // the run's own relay to the endpoint, not the endpoint (CommandExecutorRelayTest)
    assertTrue(seen.get("OPENAI_BASE_URL").matches("http://127\\.0\\.0\\.1:[0-9]+/v1"), seen.get("OPENAI_BASE_URL"));
    assertFalse(seen.get("OPENAI_BASE_URL").equals("http://127.0.0.1:9/v1"));
    assertEquals("tiny-model", seen.get("H2BEAM_MODEL"));
    assertEquals("ledger/t1", seen.get("H2BEAM_TASK"));
    assertEquals(runDir.resolve("output").toString(), seen.get("H2BEAM_OUTPUT"));
    assertEquals("answer.md", seen.get("H2BEAM_DELIVERABLE"));
    assertTrue(seen.get("HOME").startsWith(runDir.toString()), seen.get("HOME"));
    assertTrue(seen.get("TMPDIR").startsWith(runDir.toString()), seen.get("TMPDIR"));
    try (Stream<Path> files = Files.walk(runDir)) {
      for (Path f : files.filter(Files::isRegularFile).toList()) {
        String text = new String(Files.readAllBytes(f), StandardCharsets.ISO_8859_1);
        assertFalse(text.contains(SECRET) || text.contains("key-value"), f.toString());
      }
    }
  }

  @Test
  void aMissingKeyVariableIsRefusedWhenTheExecutorOpens() {
    env.remove("ENDPOINT_KEY");
    Endpoint ep = new Endpoint("local", "http://127.0.0.1:9/v1", "ENDPOINT_KEY", 1, 60, 1, 0, 0);
    ResolvedRole role = new ResolvedRole("executor", ep, "tiny-model", null, null);
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> open(Map.of("command", "true"), Optional.of(role)));
    assertTrue(e.getMessage().contains("export ENDPOINT_KEY"), e.getMessage());
  }

  @Test
  void aShellThatCannotStartIsAStartFailure() throws Exception {
    env.put("PATH", Files.createDirectories(tmp.resolve("empty-bin")).toString());
    ExecResult r = open("true").run(request());
    assertEquals("start", r.errorClass());
    assertNull(r.exit());
    assertTrue(r.error().contains("sh -c true"), r.error());
    assertTrue(read("trajectory.md").contains("[ERROR] cannot start"), read("trajectory.md"));
  }

  @Test
  void theProviderIsFoundByNameAndChecksItsSettings() throws Exception {
    ExecutorProvider p = ExecutorProvider.named("command");
    assertEquals(java.util.Set.of("command", "env_allow", "timeout_seconds", "free"), p.keys());
    assertEquals("command:my-agent {workspace}", open("my-agent {workspace}").identity());
    assertThrows(IllegalArgumentException.class, () -> open(Map.of(), Optional.empty()));
    assertThrows(IllegalArgumentException.class, () -> open(Map.of("command", " "), Optional.empty()));
    assertThrows(IllegalArgumentException.class,
        () -> open(Map.of("command", "x", "env_allow", "NOT_A_LIST"), Optional.empty()));
    assertThrows(IllegalArgumentException.class,
        () -> open(Map.of("command", "x", "timeout_seconds", -3), Optional.empty()));
  }

  @Test
  void shellQuotingSurvivesEveryQuote() {
    assertEquals("'it'\\''s'", Shell.quote("it's"));
    assertEquals("cat '/a {output}/b' {other}", Shell.substitute("cat {workspace} {other}",
        Map.of("workspace", "/a {output}/b", "output", "/o")), "a path is never scanned for placeholders again");
  }
}
