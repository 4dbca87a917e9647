package dev.h2beam.pipelines;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.h2beam.adapters.files.WriterLock;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * What another user than the owner of a team's folders is refused, which root never is ({@link AsAnotherUser};
 * dogAB 8). Skipped where the tests do not run as root.
 */
class AnotherUserTest {
  private static AsAnotherUser nobody;
  private static Path shared;

  @BeforeAll
  static void classpathAnotherUserMayRead() throws Exception {
    nobody = AsAnotherUser.start();
    shared = nobody.shared();
  }

  @AfterAll
  static void removeLinks() throws IOException {
    if (nobody != null) nobody.close();
  }

  private static String[] asNobody(String... args) throws Exception {
    return nobody.run(args);
  }

  private static Path ownersOnly(String name) throws IOException {
    Path dir = Files.createDirectories(shared.resolve(name));
    Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwx------"));
    return dir;
  }

  @Test
  void aNamespaceFolderOrGlobThisUserMayNotLookIntoIsSaidSo() throws Exception {
    Path runs = ownersOnly("runs-077");
    Files.createDirectories(runs.resolve("alice-oc-agg1"));
    String[] named = asNobody("judge", "--namespaces=" + runs.resolve("alice-oc-agg1"));
    assertEquals("1", named[0], named[1]);
    assertTrue(named[1].contains(runs.resolve("alice-oc-agg1") + " cannot be looked at by this user"), named[1]);
    String[] glob = asNobody("report", "--namespaces=" + runs + "/*");
    assertEquals("1", glob[0], glob[1]);
    assertTrue(glob[1].contains("cannot be matched: this user may not list " + runs), glob[1]);
  }

  @Test
  void aLockThisUserMayNotReadIsNamedAsItsOwnersNotAsAWriterThatFailed() throws Exception {
    Path ns = Files.createDirectories(shared.resolve("locked/demo-oc-agg1"));
    Files.createDirectories(ns.resolve("t1"));
    Files.writeString(ns.resolve("t1/summary.json"), "{}");
    // a team's folder: anyone may write it (the judge checks that first), the lock is its holder's alone
    Files.setPosixFilePermissions(ns, PosixFilePermissions.fromString("rwxrwxrwx"));
    try (WriterLock held = WriterLock.acquire(ns, "sweep of demo-oc-agg1", java.time.Duration.ZERO)) {
      Files.setPosixFilePermissions(ns.resolve(WriterLock.FILE), PosixFilePermissions.fromString("rw-------"));
      String[] judge = asNobody("judge", "--namespaces=" + ns, "--grader=noop");
      assertEquals("1", judge[0], judge[1]);
      assertTrue(judge[1].contains("is locked by a lock file this user may not read, user root's"), judge[1]);
    }
  }
}
