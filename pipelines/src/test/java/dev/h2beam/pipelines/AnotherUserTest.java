package dev.h2beam.pipelines;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.h2beam.adapters.files.WriterLock;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * h2beam run as another Unix user than the owner of a team's folders: the test JVM runs as root, and each command runs
 * in a JVM started as user {@code nobody} ({@code setpriv}), on a classpath of links to this one's jars in a folder
 * that user may read (root's Maven repository is root's alone). Root itself is refused nothing, so these are the
 * tests of what another user is refused (dogAB 8). Skipped where the tests do not run as root.
 */
class AnotherUserTest {
  private static Path shared;
  private static String classpath;

  @BeforeAll
  static void classpathAnotherUserMayRead() throws Exception {
    Assumptions.assumeTrue("root".equals(System.getProperty("user.name")), "needs root to start a JVM as nobody");
    shared = Files.createTempDirectory(Path.of("/tmp"), "h2beam-another-user-");
    Files.setPosixFilePermissions(shared, PosixFilePermissions.fromString("rwxr-xr-x"));
    Path jars = Files.createDirectories(shared.resolve("cp"));
    List<String> entries = new ArrayList<>();
    int n = 0;
    for (String e : System.getProperty("java.class.path").split(File.pathSeparator)) {
      Path p = Path.of(e);
      if (!Files.isRegularFile(p)) {
        entries.add(e); // this build's class folders, which every user may read
        continue;
      }
      Path link = jars.resolve((n++) + "-" + p.getFileName());
      try {
        Files.createLink(link, p);
      } catch (IOException | UnsupportedOperationException otherDevice) {
        Files.copy(p, link);
      }
      entries.add(link.toString());
    }
    classpath = String.join(File.pathSeparator, entries);
  }

  @AfterAll
  static void removeLinks() throws IOException {
    if (shared == null) return;
    try (var s = Files.walk(shared)) {
      for (Path p : s.sorted(java.util.Comparator.reverseOrder()).toList()) Files.deleteIfExists(p);
    }
  }

  /** Runs h2beam {@code args} as user nobody; its exit code and what it printed. */
  private static String[] asNobody(String... args) throws Exception {
    List<String> cmd = new ArrayList<>(List.of("setpriv", "--reuid=65534", "--regid=65534", "--clear-groups",
        Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-XX:TieredStopAtLevel=1",
        "-XX:+UseSerialGC", "-cp", classpath, Main.class.getName()));
    cmd.addAll(List.of(args));
    Process p = new ProcessBuilder(cmd).directory(shared.toFile()).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(p.waitFor(120, TimeUnit.SECONDS), out);
    return new String[] {Integer.toString(p.exitValue()), out};
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
