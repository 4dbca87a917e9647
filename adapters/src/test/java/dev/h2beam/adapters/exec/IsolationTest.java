package dev.h2beam.adapters.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Programs run in namespaces of their own ({@link Isolation}), for real: {@code unshare} and {@code mount} on this
 * machine. Where the machine cannot make them, every case checks instead that an isolated program is refused before
 * it starts, saying why and what to do, and never run without its isolation.
 */
class IsolationTest {
  @TempDir Path dir;

  private Path bench;
  private Path run;

  /** A benchmark folder with an answer key, and a run folder inside it (the default runs root's layout). */
  private Isolation layout() throws IOException {
    bench = dir.resolve("bench");
    Files.createDirectories(bench.resolve("tasks/d/t/grading"));
    Files.writeString(bench.resolve("tasks/d/t/grading/expected.txt"), "Total: 56.75\n");
    run = Files.createDirectories(bench.resolve("runs/_executions/ns/d/t/base1"));
    Files.writeString(bench.resolve("runs/_executions/ns/d/t/base2.txt"), "a sibling's file\n");
    return new Isolation(List.of(bench), List.of()).showing(run);
  }

  private ProcessResult sh(String script, Isolation isolation, Duration timeout) throws Exception {
    return ProcessRunner.run(ProcessSpec.of(List.of("sh", "-c", script), run, Env.base(System.getenv()),
        dir.resolve("out.txt"), dir.resolve("err.txt"), timeout).withIsolation(isolation));
  }

  /** Skips nothing: on a machine that cannot isolate, asserts the refusal and returns false. */
  private boolean isolatesOrRefuses(Isolation isolation) throws Exception {
    Optional<String> why = Isolation.unavailable();
    if (why.isEmpty()) return true;
    ProcessRunner.StartException e = assertThrows(ProcessRunner.StartException.class,
        () -> sh("touch ran", isolation, Duration.ofSeconds(30)));
    assertTrue(e.getMessage().contains("isolated: " + why.get()), e.getMessage());
    assertTrue(e.getMessage().contains("--isolation"), e.getMessage());
    assertFalse(Files.exists(run.resolve("ran")), "nothing ran");
    return false;
  }

  @Test
  void theProgramSeesItsRunFolderAndNothingElseOfTheBenchmark() throws Exception {
    Isolation isolation = layout();
    if (!isolatesOrRefuses(isolation)) return;
    String script = "cat " + bench + "/tasks/d/t/grading/expected.txt; echo cat=$?;"
        + " cat ../../../../../../tasks/d/t/grading/expected.txt; echo relative=$?; cd ..; ls -A;"
        + " cat ../../../../../tasks/d/t/grading/expected.txt; echo up=$?; cd " + run + ";"
        + " ls -A " + bench + " | wc -l;"
        + " ls -A " + run.getParent() + "; echo mine > " + run + "/deliverable.txt;"
        + " touch " + bench + "/planted 2>/dev/null; echo touch=$?;"
        + " umount -l " + bench + " 2>/dev/null; echo umount=$?; cat " + bench + "/tasks/d/t/grading/expected.txt;"
        + " exit 7";
    List<Path> before = stages();
    ProcessResult r = sh(script, isolation, Duration.ofSeconds(60));
    String out = Files.readString(dir.resolve("out.txt"));
    assertEquals(before, stages());
    assertEquals(7, r.exit(), out + Files.readString(dir.resolve("err.txt")));
    assertFalse(out.contains("56.75"), out);
    assertTrue(out.contains("cat=1"), out);
    assertTrue(out.contains("relative=1"), "no way up from the folder it starts in: " + out);
    assertTrue(out.contains("\nbase1\nup=1"), out);
    // the benchmark folder holds only the path down to the run folder; the run's siblings are gone
    assertTrue(out.contains("\n1\nbase1\n"), out);
    assertFalse(out.contains("base2"), out);
    assertTrue(out.contains("touch=1"), "the hidden folders are read-only: " + out);
    assertTrue(out.contains("umount=32"), "the program cannot take the cover off, even as root: " + out);
    assertEquals("mine\n", Files.readString(run.resolve("deliverable.txt")), "the run folder is the host's");
    assertFalse(Files.exists(bench.resolve("planted")));
    assertEquals("Total: 56.75\n", Files.readString(bench.resolve("tasks/d/t/grading/expected.txt")));
  }

  @Test
  void h2beamsProcessesAndTheirEnvironmentAreOutOfSight() throws Exception {
    Isolation isolation = layout();
    if (!isolatesOrRefuses(isolation)) return;
    long self = ProcessHandle.current().pid();
    ProcessResult r = sh("test -e /proc/" + self + "/environ; echo environ=$?; ls /proc | grep -c '^[0-9]'",
        isolation, Duration.ofSeconds(60));
    String out = Files.readString(dir.resolve("out.txt"));
    assertEquals(0, r.exit(), out);
    assertTrue(out.contains("environ=1"), out);
    // the shell that starts the program, the program, ls and grep: no process of the host
    assertTrue(Integer.parseInt(out.lines().reduce((a, b) -> b).orElseThrow().strip()) <= 5, out);
  }

  @Test
  void aFolderHiddenInsideAVisibleOneIsHiddenToo() throws Exception {
    layout();
    Files.createDirectories(run.resolve("secret"));
    Files.writeString(run.resolve("secret/key.txt"), "k\n");
    Isolation isolation = new Isolation(List.of(bench, run.resolve("secret")), List.of(run));
    if (!isolatesOrRefuses(isolation)) return;
    ProcessResult r = sh("ls -A secret | wc -l", isolation, Duration.ofSeconds(60));
    assertEquals(0, r.exit());
    assertEquals("0", Files.readString(dir.resolve("out.txt")).strip());
    assertTrue(Files.isRegularFile(run.resolve("secret/key.txt")), "hidden from the program, kept on the host");
  }

  @Test
  void aTimeoutEndsEverythingTheProgramStartedEvenInASessionOfItsOwn() throws Exception {
    Isolation isolation = layout();
    if (!isolatesOrRefuses(isolation)) return;
    String marker = "3" + Math.abs(UUID.randomUUID().getMostSignificantBits() % 100_000) + ".5";
    ProcessResult r = sh("setsid sleep " + marker + " & sleep " + marker, isolation, Duration.ofSeconds(2));
    assertTrue(r.timedOut());
    waitGone(marker);
  }

  @Test
  void aBackgroundJobLeftBehindEndsWithTheProgram() throws Exception {
    Isolation isolation = layout();
    if (!isolatesOrRefuses(isolation)) return;
    String marker = "4" + Math.abs(UUID.randomUUID().getMostSignificantBits() % 100_000) + ".5";
    ProcessResult r = sh("(setsid sleep " + marker + " &) ; echo started", isolation, Duration.ofSeconds(60));
    assertEquals(0, r.exit());
    waitGone(marker);
  }

  @Test
  void inputReachesTheProgram() throws Exception {
    Isolation isolation = layout();
    if (!isolatesOrRefuses(isolation)) return;
    ProcessResult r = ProcessRunner.run(ProcessSpec.of(List.of("sh", "-c", "cat > got.txt"), run,
        Env.base(System.getenv()), dir.resolve("out.txt"), dir.resolve("err.txt"), Duration.ofSeconds(60))
        .withStdin(new ProcessSpec.Stdin.Text("the prompt\n")).withIsolation(isolation));
    assertEquals(0, r.exit());
    assertEquals("the prompt\n", Files.readString(run.resolve("got.txt")));
  }

  /**
   * The way a user other than root is isolated (a user namespace of its own, where it is root), tried even as root
   * wherever this kernel lets a user namespace be made at all: the same probe the first use runs.
   */
  @Test
  void aUserNamespaceIsolatesTheSameWay() throws Exception {
    layout();
    Path out = dir.resolve("userns.txt");
    boolean kernelAllows = new ProcessBuilder("unshare", "--user", "--map-root-user", "true")
        .redirectErrorStream(true).redirectOutput(out.toFile()).start().waitFor() == 0;
    if (!kernelAllows) {
      assertFalse(Isolation.probe(true).isEmpty(), "no user namespace here: " + Files.readString(out));
      return;
    }
    assertEquals("", Isolation.probe(true));
    ProcessResult r = ProcessRunner.run(ProcessSpec.of(List.of("sh", "-c", "cat " + bench
        + "/tasks/d/t/grading/expected.txt; echo cat=$? > seen.txt"), run, Env.base(System.getenv()),
        dir.resolve("out.txt"), dir.resolve("err.txt"), Duration.ofSeconds(60)).withIsolation(layout()), true);
    assertEquals(0, r.exit());
    assertEquals("cat=1\n", Files.readString(run.resolve("seen.txt")));
    assertFalse(Files.readString(dir.resolve("out.txt")).contains("56.75"));
  }

  /** A hidden folder may hold this JVM's temporary folder: the folders shown pass through one outside it. */
  @Test
  void theTemporaryFolderItselfCanBeHidden() throws Exception {
    layout();
    Path tmpdir = Path.of(System.getProperty("java.io.tmpdir")).toAbsolutePath().normalize();
    Isolation isolation = new Isolation(List.of(tmpdir), List.of(run));
    assertFalse(isolation.stageParent().startsWith(tmpdir), isolation.stageParent().toString());
    if (!run.startsWith(tmpdir) || !isolatesOrRefuses(isolation)) return;
    ProcessResult r = sh("ls -A " + tmpdir + " > listing.txt", isolation, Duration.ofSeconds(60));
    assertEquals(0, r.exit(), Files.readString(dir.resolve("err.txt")));
    // the way down to the run folder, and nothing else of the temporary folder
    assertEquals(tmpdir.relativize(run).getName(0) + "\n", Files.readString(run.resolve("listing.txt")));
  }

  /** A hidden folder not made yet hides nothing and stops nothing. */
  @Test
  void aHiddenFolderThatDoesNotExistYetIsPassedOver() throws Exception {
    layout();
    Isolation isolation = new Isolation(List.of(bench, dir.resolve("library-to-come")), List.of(run));
    if (!isolatesOrRefuses(isolation)) return;
    ProcessResult r = sh("echo ran > ran.txt", isolation, Duration.ofSeconds(60));
    assertEquals(0, r.exit(), Files.readString(dir.resolve("err.txt")));
    assertEquals("ran\n", Files.readString(run.resolve("ran.txt")));
  }

  @Test
  void theRootFolderCannotBeHidden() {
    assertThrows(IllegalArgumentException.class, () -> new Isolation(List.of(Path.of("/")), List.of()));
  }

  /** The temporary mount points of isolated programs in this JVM's temporary folder. */
  private static List<Path> stages() throws IOException {
    try (Stream<Path> all = Files.list(Path.of(System.getProperty("java.io.tmpdir")))) {
      return all.filter(p -> p.getFileName().toString().startsWith("h2beam-stage")).sorted().toList();
    }
  }

  /** No process of this machine runs {@code sleep <marker>} (waiting a little for the kernel to reap them). */
  private static void waitGone(String marker) throws Exception {
    List<Long> found = new ArrayList<>();
    for (int i = 0; i < 100; i++) {
      found = sleeping(marker);
      if (found.isEmpty()) return;
      Thread.sleep(50);
    }
    throw new AssertionError("still running: sleep " + marker + " as " + found);
  }

  private static List<Long> sleeping(String marker) throws IOException {
    List<Long> out = new ArrayList<>();
    try (Stream<Path> procs = Files.list(Path.of("/proc"))) {
      for (Path p : procs.filter(p -> p.getFileName().toString().matches("[0-9]+")).toList()) {
        try {
          String cmd = Files.readString(p.resolve("cmdline")).replace('\0', ' ');
          String state = Files.readString(p.resolve("stat"));
          boolean zombie = state.substring(state.lastIndexOf(')') + 2).startsWith("Z");
          if (cmd.contains("sleep " + marker) && !zombie) out.add(Long.parseLong(p.getFileName().toString()));
        } catch (IOException gone) {
          // ended while looked at
        }
      }
    }
    return out;
  }
}
