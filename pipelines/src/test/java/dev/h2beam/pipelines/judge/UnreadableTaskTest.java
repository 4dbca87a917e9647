package dev.h2beam.pipelines.judge;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.h2beam.pipelines.AsAnotherUser;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A judge run by a teammate who may not look into one task's folder (its owner's umask 077) said "2 row(s), 2
 * graded", exited 0 and left the task out of every figure (dogAB 2): the task is named unreadable, with the reason
 * and the fix, and the judge exits 2. Run for real as another user ({@link AsAnotherUser}).
 */
class UnreadableTaskTest {
  @Test
  void aTaskFolderAnotherUserMayNotEnterIsNamedAndFailsTheJudge() throws Exception {
    try (AsAnotherUser nobody = AsAnotherUser.start()) {
      Path runs = Files.createDirectories(nobody.shared().resolve("team/runs"));
      Path ns = Namespaces.python(runs, "demo-oc-agg1", 1, Map.of("t1", "{\"n_passed\": 1, \"n_criteria\": 1}",
          "t2", "{\"n_passed\": 1, \"n_criteria\": 1}"));
      try (var s = Files.walk(nobody.shared().resolve("team"))) {
        for (Path p : s.toList()) {
          Files.setPosixFilePermissions(p, PosixFilePermissions.fromString(Files.isDirectory(p) ? "rwxrwxrwx"
              : "rw-rw-rw-"));
        }
      }
      Files.setPosixFilePermissions(ns.resolve("t2"), PosixFilePermissions.fromString("rwx------"));
      String[] judged = nobody.run("judge", "--namespaces=" + ns, "--grader=scripted");
      assertEquals("2", judged[0], judged[1]);
      assertTrue(judged[1].contains(ns.resolve("t2/summary.json") + ": cannot be read (Permission denied): this user"
          + " may not read it or look into a folder above it"), judged[1]);
      assertTrue(judged[1].contains("1 unreadable summary file(s)"), judged[1]);
    }
  }
}
