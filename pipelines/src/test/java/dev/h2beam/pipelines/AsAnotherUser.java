package dev.h2beam.pipelines;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;

/**
 * h2beam run as another Unix user than the one who owns a team's folders. The tests run as root, whom no permission
 * stops; each command here runs in a JVM started as user {@code nobody} ({@code setpriv}), on a classpath of hard
 * links to this JVM's jars in a folder every user may read (root's Maven repository is root's alone). Where the tests
 * do not run as root, a test using it is skipped.
 */
public final class AsAnotherUser implements AutoCloseable {
  private final Path shared;
  private final String classpath;

  private AsAnotherUser(Path shared, String classpath) {
    this.shared = shared;
    this.classpath = classpath;
  }

  /** Sets up the classpath; skips the calling test unless it runs as root. */
  public static AsAnotherUser start() throws IOException {
    Assumptions.assumeTrue("root".equals(System.getProperty("user.name")), "needs root to start a JVM as nobody");
    Path shared = Files.createTempDirectory(Path.of("/tmp"), "h2beam-another-user-");
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
    return new AsAnotherUser(shared, String.join(File.pathSeparator, entries));
  }

  /** A folder every user may enter, for the test's files; removed at {@link #close}. */
  public Path shared() {
    return shared;
  }

  /** Runs {@code h2beam args} as user nobody: its exit code and what it printed. */
  public String[] run(String... args) throws Exception {
    List<String> cmd = new ArrayList<>(List.of("setpriv", "--reuid=65534", "--regid=65534", "--clear-groups",
        Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-XX:TieredStopAtLevel=1",
        "-XX:+UseSerialGC", "-cp", classpath, Main.class.getName()));
    cmd.addAll(List.of(args));
    Process p = new ProcessBuilder(cmd).directory(shared.toFile()).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(p.waitFor(120, TimeUnit.SECONDS), out);
    return new String[] {Integer.toString(p.exitValue()), out};
  }

  @Override public void close() throws IOException {
    try (var s = Files.walk(shared)) {
      for (Path p : s.sorted(Comparator.reverseOrder()).toList()) Files.deleteIfExists(p);
    }
  }
}
