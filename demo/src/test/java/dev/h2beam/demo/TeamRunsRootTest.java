package dev.h2beam.demo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.h2beam.pipelines.AsAnotherUser;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;

/**
 * A runs root shared by a team, one of whose folders a teammate kept to themself (umask 077): another user's resume
 * failed with an AccessDeniedException trace naming only the leaf (dogAB 4). It is one line naming the file, its
 * owner and the fix. Run for real as another user ({@link AsAnotherUser}).
 */
class TeamRunsRootTest {
  @Test
  void aFolderATeammateKeptToThemselfIsNamedInOneLine() throws Exception {
    try (AsAnotherUser nobody = AsAnotherUser.start()) {
      Path bench = Files.createDirectories(nobody.shared().resolve("team/bench"));
      Path sweeps = Files.createDirectories(bench.resolve("runs/_sweeps"));
      for (Path p : new Path[] {bench.getParent(), bench, bench.resolve("runs")}) {
        Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rwxrwxrwx"));
      }
      Files.setPosixFilePermissions(sweeps, PosixFilePermissions.fromString("rwx------"));
      String[] swept = nobody.run("sweep", "--bench=synthetic", "--benchRoot=" + bench, "--k=1", "--modes=parallel",
          "--benchSettings={\"domains\": 1, \"tasksPerDomain\": 1}", "--progress=off");
      assertEquals("1", swept[0], swept[1]);
      assertTrue(swept[1].contains("error: sweep: this user may not use " + sweeps + ", user root's (permission"
          + " denied)") && swept[1].contains("re-run the same command then"), swept[1]);
      assertFalse(swept[1].contains("\tat "), "no trace: " + swept[1]);
    }
  }
}
