package dev.h2beam.adapters.files;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A client that exits while its JobManager does not answer keeps its locks naming its job, and says what it knows of
 * the job: not that it "has not ended" when its submission failed and it may never have been taken (dogAC F6). A real
 * JVM and its exit; the JobManager is a loopback port where nothing listens.
 */
class ExitKeepsJobLocksTest {
  @TempDir Path dir;

  @Test
  void aJobWhoseSubmissionFailedIsNotCalledRunningAndItsLocksStay() throws Exception {
    String err = exit("submission-failed");
    assertTrue(err.contains("h2beam: exiting: the submission of the Flink job h2beam-judge-1207044024-0581d1c3 on "),
        err);
    assertTrue(err.contains("h2beam: the submission of the Flink job h2beam-judge-1207044024-0581d1c3 on ")
        && err.contains(" failed, and whether the JobManager took the job all the same cannot be told (no answer from")
        && err.contains("its folders stay locked, naming it"), err);
    assertFalse(err.contains("has not ended"), err);
    assertEquals("h2beam-judge-1207044024-0581d1c3",
        Json.readTree(dir.resolve(WriterLock.FILE)).path("job").path("name").asText(), "the lock still names it");
  }

  @Test
  void aSubmittedJobTheJobManagerCannotBeAskedAboutIsSaidToBeUnknown() throws Exception {
    String err = exit("submitted");
    assertTrue(err.contains("h2beam: exiting: cancelling the Flink job h2beam-judge-1207044024-0581d1c3 on "), err);
    assertTrue(err.contains("h2beam: whether the Flink job h2beam-judge-1207044024-0581d1c3 on ")
        && err.contains(" has ended cannot be told (no answer from"), err);
    assertFalse(err.contains("has not ended"), err);
    assertTrue(Files.exists(dir.resolve(WriterLock.FILE)), "kept");
  }

  /** Runs {@link Child} with {@code how}; returns its stderr. */
  private String exit(String how) throws Exception {
    Path log = dir.resolveSibling(dir.getFileName() + ".err");
    Process child = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp",
        System.getProperty("java.class.path"), Child.class.getName(), dir.toString(),
        ClusterJobLockTest.nobodyListening(), how).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    try {
      assertTrue(child.waitFor(60, TimeUnit.SECONDS), "the child exits");
      return Files.readString(log, StandardCharsets.UTF_8);
    } finally {
      child.destroyForcibly();
      Files.deleteIfExists(log);
    }
  }

  /** A client holding a lock whose job's JobManager does not answer, exiting as a failed command does. */
  public static final class Child {
    public static void main(String[] args) throws Exception {
      WriterLock.exitWait = Duration.ofSeconds(1);
      WriterLock.acquire(Path.of(args[0]), "judge", Duration.ZERO);
      WriterLock.jobStarted(ClusterJob.of(args[1], "h2beam-judge-1207044024-0581d1c3"));
      if (args[2].equals("submission-failed")) WriterLock.submissionFailed();
      System.exit(1);
    }
  }
}
