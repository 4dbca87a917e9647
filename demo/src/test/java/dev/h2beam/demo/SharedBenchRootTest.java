package dev.h2beam.demo;

import static dev.h2beam.demo.DemoRuns.count;
import static dev.h2beam.demo.DemoRuns.demoJson;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.h2beam.pipelines.UsageError;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The demo's benchmark folder keeps its rollouts and libraries under itself, so it serves one runs root: a second
 * runs root (another folder, a copy beside the original, one deleted and made again) is refused with nothing written,
 * while the same runs root moved, or moved together with its benchmark folder, resumes for free.
 */
class SharedBenchRootTest {

  static int demo(Path out, String... extra) throws Exception {
    List<String> args = new ArrayList<>(List.of("--k=1"));
    args.addAll(List.of(extra));
    return DemoRuns.demo(out, args.toArray(new String[0]));
  }

  static String refused(Path out, String... extra) {
    return assertThrows(UsageError.class, () -> demo(out, extra)).getMessage();
  }

  @Test
  void aSecondRunsRootIsRefusedAndNothingOfTheFirstChanges(@TempDir Path out, @TempDir Path other) throws Exception {
    assertEquals(0, demo(out));
    Map<String, String> before = stamps(out);

    // the dry run says so first, and writes nothing either
    String told = DemoOptionsTest.dryRun("--output=" + out, "--k=1", "--runsRoot=" + other.resolve("runs"),
        "--dryRun=true");
    assertTrue(told.contains("# the sweep would be refused: --benchRoot=" + out + " keeps the rollouts and libraries"
        + " of the runs root " + out.resolve("runs")), told);
    String second = refused(out, "--runsRoot=" + other.resolve("runs"));
    assertTrue(second.contains("--benchRoot=" + out + " keeps the rollouts and libraries of the runs root "
        + out.resolve("runs")), second);
    assertTrue(second.contains("Sweep with --runsRoot=" + out.resolve("runs")), second);
    assertEquals(before, stamps(out), "the first runs root and the benchmark folder are untouched");
    try (Stream<Path> s = Files.walk(other)) {
      List<String> written = s.filter(Files::isRegularFile).map(p -> other.relativize(p).toString()).toList();
      assertEquals(List.of(), written, "the refused runs root holds no file");
    }
  }

  @Test
  void aMovedRunsRootResumesForFreeAndACopyBesideTheOriginalIsRefused(@TempDir Path out) throws Exception {
    assertEquals(0, demo(out));
    Files.move(out.resolve("runs"), out.resolve("moved"));
    assertEquals(0, demo(out, "--runsRoot=" + out.resolve("moved")));
    assertEquals(0, count(demoJson(out), "execution_count"), "the moved runs root reuses its own rollouts");
    assertEquals(0, count(demoJson(out), "editor_calls"));

    copy(out.resolve("moved"), out.resolve("copy"));
    String copied = refused(out, "--runsRoot=" + out.resolve("copy"));
    assertTrue(copied.contains("the runs root " + out.resolve("copy") + " is a copy of "
        + out.resolve("moved")), copied);
  }

  @Test
  void aWholeDemoFolderCopiedResumesForFree(@TempDir Path tmp) throws Exception {
    Path out = tmp.resolve("a");
    assertEquals(0, demo(out));
    copy(out, tmp.resolve("b"));
    assertEquals(0, demo(tmp.resolve("b")));
    assertEquals(0, count(demoJson(tmp.resolve("b")), "execution_count"));
    // and the original stays its own
    assertEquals(0, demo(out));
  }

  @Test
  void aRunsRootDeletedAndMadeAgainIsToldHowToStartAfresh(@TempDir Path out) throws Exception {
    assertEquals(0, demo(out));
    delete(out.resolve("runs"));
    String again = refused(out);
    assertTrue(again.contains("(a runs root of that name that was deleted and made again)"), again);
    assertTrue(again.contains("delete " + out.resolve("executions") + ", " + out.resolve("library") + " and "
        + out.resolve(".h2beam").resolve("runs-root.json") + " to start afresh"), again);

    delete(out.resolve("executions"));
    delete(out.resolve("library"));
    Files.delete(out.resolve(".h2beam").resolve("runs-root.json"));
    assertEquals(0, demo(out));
    assertEquals(2 * 7, count(demoJson(out), "execution_count"), "every rollout ran again, none taken over");
  }

  private static Map<String, String> stamps(Path root) throws Exception {
    Map<String, String> m = new TreeMap<>();
    try (Stream<Path> s = Files.walk(root)) {
      for (Path p : s.filter(Files::isRegularFile).toList()) {
        m.put(root.relativize(p).toString(), Files.size(p) + "@" + Files.getLastModifiedTime(p).toMillis());
      }
    }
    return m;
  }

  private static void copy(Path from, Path to) throws Exception {
    try (Stream<Path> s = Files.walk(from)) {
      for (Path p : s.toList()) {
        Path t = to.resolve(from.relativize(p).toString());
        if (Files.isDirectory(p)) {
          Files.createDirectories(t);
        } else if (!Files.isSymbolicLink(p)) {
          Files.copy(p, t);
        }
      }
    }
  }

  private static void delete(Path root) throws Exception {
    try (Stream<Path> s = Files.walk(root)) {
      for (Path p : s.sorted(java.util.Comparator.reverseOrder()).toList()) Files.delete(p);
    }
  }
}
