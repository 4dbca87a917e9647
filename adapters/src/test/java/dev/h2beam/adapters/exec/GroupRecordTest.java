package dev.h2beam.adapters.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.h2beam.adapters.files.Json;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The record of a program that runs in a session of its own, written before it starts: a JVM killed between the
 * program's start and the record of its pid leaves a record with the program's token only, and the next run in the
 * folder finds the program by that token and kills its session. Real processes, started through setsid.
 */
class GroupRecordTest {
  @TempDir Path dir;
  private final List<Process> started = new ArrayList<>();

  @BeforeEach
  void needsProcAndSetsid() {
    assumeTrue(Files.isDirectory(Path.of("/proc")) && ProcessGroup.SETSID != null, "needs /proc and setsid");
  }

  @AfterEach
  void killLeftovers() throws Exception {
    for (Process p : started) {
      new ProcessBuilder("kill", "-KILL", "--", "-" + p.pid()).start().waitFor();
    }
  }

  /** A shell in a session of its own, with {@code token} in its environment, that starts a child and waits. */
  private Process session(String token) throws Exception {
    ProcessBuilder pb = new ProcessBuilder(ProcessGroup.SETSID, "sh", "-c",
        "sleep 300 & echo $! > " + dir.resolve("child-" + token + ".pid") + "; wait").directory(dir.toFile());
    pb.environment().put(GroupRecord.ENV, token);
    Process p = pb.start();
    started.add(p);
    Path pidFile = dir.resolve("child-" + token + ".pid");
    for (int i = 0; i < 1000 && (!Files.exists(pidFile) || Files.readString(pidFile).isBlank()); i++) {
      Thread.sleep(10);
    }
    return p;
  }

  private long child(String token) throws Exception {
    return Long.parseLong(Files.readString(dir.resolve("child-" + token + ".pid")).strip());
  }

  @Test
  void aRecordWithoutPidStopsTheProgramThatCarriesItsTokenAndNoOther() throws Exception {
    Path run = Files.createDirectories(dir.resolve("run"));
    Path record = run.resolve(GroupRecord.FILE);
    String token = GroupRecord.starting(record);
    JsonNode written = Json.readTree(record);
    assertEquals(token, written.path("token").asText());
    assertFalse(written.has("pid"), "no pid before the start: " + written);

    Process orphan = session(token); // the JVM was killed here, before the pid's record
    Process other = session("0123456789abcdef0123456789abcdef");
    long orphanChild = child(token);
    assertTrue(ProcessGroup.live(orphan.pid()) && ProcessGroup.live(orphanChild));

    assertTrue(GroupRecord.stopRecorded(run), "the record was found");

    assertTrue(orphan.waitFor(10, TimeUnit.SECONDS), "the program is killed");
    assertFalse(ProcessGroup.live(orphanChild), "and the rest of its session");
    assertTrue(other.isAlive(), "a program with another token is left alone");
    assertFalse(Files.exists(record), "the record goes");
  }

  @Test
  void theRunnerGivesTheProgramTheTokenOfItsRecordWrittenBeforeItStarts() throws Exception {
    Path record = dir.resolve(GroupRecord.FILE);
    // the program shows the record as it finds it at its start, and the token it was given
    ProcessSpec spec = ProcessSpec.of(List.of("sh", "-c", "cat " + GroupRecord.FILE + "; echo; echo \"$"
        + GroupRecord.ENV + "\""), dir, Env.base(System.getenv()), dir.resolve("out.txt"), dir.resolve("err.txt"),
        Duration.ofSeconds(60)).withGroupRecord(record);

    ProcessResult r = ProcessRunner.run(spec);

    String[] lines = Files.readString(r.stdout(), StandardCharsets.UTF_8).strip().split("\n");
    String token = lines[lines.length - 1];
    assertEquals(32, token.length(), "a token in the program's environment: " + String.join("|", lines));
    assertEquals(token, Json.readTree(lines[0]).path("token").asText(), "the record held it at the start");
    assertFalse(Files.exists(record), "and is removed once the program ended");
  }

  @Test
  void aNulSeparatedEnvironmentHoldsOnlyWholeEntries() {
    byte[] env = "A=1\0H2BEAM_GROUP_TOKEN=ab\0B=2\0".getBytes(StandardCharsets.UTF_8);
    assertTrue(ProcessGroup.holds(env, "H2BEAM_GROUP_TOKEN=ab".getBytes(StandardCharsets.UTF_8)));
    assertTrue(ProcessGroup.holds(env, "B=2".getBytes(StandardCharsets.UTF_8)));
    assertFalse(ProcessGroup.holds(env, "H2BEAM_GROUP_TOKEN=a".getBytes(StandardCharsets.UTF_8)), "a prefix");
    assertFalse(ProcessGroup.holds(env, "GROUP_TOKEN=ab".getBytes(StandardCharsets.UTF_8)), "a suffix");
    assertFalse(ProcessGroup.holds("X=H2BEAM_GROUP_TOKEN=ab".getBytes(StandardCharsets.UTF_8),
        "H2BEAM_GROUP_TOKEN=ab".getBytes(StandardCharsets.UTF_8)), "inside another entry, unended");
  }
}
