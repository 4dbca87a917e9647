package dev.h2beam.adapters.folder;

import static dev.h2beam.adapters.bench.Problems.assertProblem;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.h2beam.adapters.bench.BenchmarkInvalid;
import dev.h2beam.adapters.config.RunConfig;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FolderBenchmarkTest {
  static final Path EXAMPLE = Paths.get("..", "examples", "folder-bench").toAbsolutePath().normalize();
  static final String CONFIG = "endpoints:\n  local: {base_url: \"http://127.0.0.1:9/v1\"}\n"
      + "roles:\n  executor: {endpoint: local, model: m}\n";

  @TempDir Path tmp;

  static RunConfig config() {
    return RunConfig.parse(CONFIG, "test.yaml");
  }

  FolderBenchmark open(Path root) {
    return FolderBenchmark.open(root, tmp.resolve("exec"), "all", config(), Map.of());
  }

  Path copyExample() throws IOException {
    Path root = tmp.resolve("bench");
    try (Stream<Path> s = Files.walk(EXAMPLE)) {
      for (Path p : s.toList()) {
        Path t = root.resolve(EXAMPLE.relativize(p).toString());
        if (Files.isDirectory(p)) Files.createDirectories(t);
        else Files.copy(p, t);
      }
    }
    return root;
  }

  static List<String> problems(Runnable r) {
    return assertThrows(BenchmarkInvalid.class, r::run).problems();
  }

  @Test
  void theWorkedExampleOpensWithItsTasksInStreamOrder() {
    FolderBenchmark b = open(EXAMPLE);
    assertEquals(List.of("inventory/bolts", "inventory/nuts", "ledgers/april", "ledgers/march"), b.tasks());
    assertEquals("ledgers", b.domainOf("ledgers/march"));
    assertEquals("signed_sums", b.spec().name());
    assertTrue(b.taskPrompt("ledgers/march").contains("Total: <sum>"));
    assertEquals(EXAMPLE.resolve("tasks/ledgers/march/source"), b.taskFiles("ledgers/march").orElseThrow());
    assertEquals(List.of("inventory", "ledgers"), b.referenceDomainOrder().orElseThrow());
    assertTrue(b.executorIdentity().startsWith("chat:http://127.0.0.1:9/v1#m"));
  }

  @Test
  void aSplitComesFromTheSplitFile() {
    FolderBenchmark b = FolderBenchmark.open(EXAMPLE, tmp, "test", config(), Map.of());
    assertEquals(List.of("inventory/nuts", "ledgers/april"), b.tasks());
  }

  @Test
  void everyProblemIsCollectedAndNamesItsFile() throws IOException {
    Path root = copyExample();
    Files.delete(root.resolve("tasks/ledgers/march/task.md"));
    Files.createDirectories(root.resolve("tasks/empty"));
    Files.writeString(root.resolve("tasks/inventory/nuts/grading/notes.md"), "the answer is 234");
    Files.writeString(root.resolve("bench.json"), Files.readString(root.resolve("bench.json"))
        .replace("\"deliverable\"", "\"colour\": \"blue\", \"deliverable\""));
    List<String> p = problems(() -> open(root));
    assertProblem(p, "tasks/ledgers/march/task.md", "missing");
    assertProblem(p, "tasks/empty", "empty domain");
    assertProblem(p, "grading/notes.md", "leak glob", "leak_globs");
    assertProblem(p, "bench.json", "colour", "unknown key");
    assertEquals(4, p.size(), p.toString());
    // beside a covered answer key, an uncovered file is one to add to the globs, not a key to rename
    assertFalse(p.stream().anyMatch(x -> x.contains("rename it")), p.toString());
  }

  /** dogAK F7: a misspelt answer key is named as one, before the leak glob it would otherwise be told to add. */
  @Test
  void aMisspeltAnswerKeyIsNamedAsOne() throws IOException {
    Path root = copyExample();
    Path grading = root.resolve("tasks/inventory/nuts/grading");
    Files.move(grading.resolve("expected.txt"), grading.resolve("expectd.txt"));
    List<String> p = problems(() -> open(root));
    assertProblem(p, "grading/expectd.txt", "if it is the task's expected.txt (which its grader reads, and which is"
        + " missing), rename it; else add \"expectd.txt\" to leak_globs");
  }

  @Test
  void aChatExecutorWithoutAnExecutorRoleIsAProblem() {
    List<String> p = problems(() -> FolderBenchmark.open(EXAMPLE, tmp, "all", RunConfig.empty(), Map.of()));
    assertProblem(p, "bench.json", "executor", "roles.executor");
  }

  @Test
  void aMissingBaseHarnessAndATooLargeSourceAreProblems() throws IOException {
    Path root = copyExample();
    try (Stream<Path> s = Files.walk(root.resolve("base"))) {
      for (Path f : s.sorted(java.util.Comparator.reverseOrder()).toList()) Files.delete(f);
    }
    Files.write(root.resolve("tasks/ledgers/april/source/big.csv"), new byte[70_000]);
    List<String> p = problems(() -> open(root));
    assertProblem(p, "base", "missing");
    assertProblem(p, "big.csv", "max_source_bytes");
  }

  /**
   * A source file a leak glob covers is refused (dogAD F6): the evidence left it out, but the executor got it in its
   * workspace, and a rollout that printed it put the answer in front of every improver through its trajectory.
   */
  @Test
  void aSourceFileThatALeakGlobCoversIsRefused() throws IOException {
    Path root = copyExample();
    Files.writeString(root.resolve("tasks/ledgers/april/source/expected.txt"), "Total: 321.20\n");
    List<String> p = problems(() -> open(root));
    assertProblem(p, "source/expected.txt", "a source file that a leak glob covers");
    assertEquals(1, p.size(), p.toString());
  }

  /**
   * Two task ids whose run folders would have one name (x/y__z and x__y/z both become x__y__z) are refused, naming
   * both folders: one task's summary would overwrite the other's.
   */
  @Test
  void tasksThatWouldShareARunFolderAreRefusedNamingBoth() throws IOException {
    Path root = copyExample();
    Files.move(root.resolve("tasks/ledgers/march"), root.resolve("tasks/ledgers/x__y"));
    Files.move(root.resolve("tasks/inventory"), root.resolve("tasks/ledgers__x"));
    Files.move(root.resolve("tasks/ledgers__x/nuts"), root.resolve("tasks/ledgers__x/y"));
    Files.delete(root.resolve("splits.json"));
    List<String> p = problems(() -> open(root));
    assertProblem(p, "tasks/ledgers__x/y", "ledgers__x__y", "tasks/ledgers/x__y", "rename one");
    assertEquals(1, p.size(), p.toString());
  }

  /** A name of letters only that is too long is refused for its length, which the message states. */
  @Test
  void aTooLongTaskNameIsRefusedSayingHowLongANameMayBe() throws IOException {
    Path root = copyExample();
    Files.move(root.resolve("tasks/ledgers/march"), root.resolve("tasks/ledgers/" + "t".repeat(130)));
    Files.delete(root.resolve("splits.json"));
    assertProblem(problems(() -> open(root)), "t".repeat(130) + ": task name must be 1 to 100 letters, digits, _, ."
        + " or -");
  }

  @Test
  void symbolicLinksAreRefusedNotFollowed() throws IOException {
    Path root = copyExample();
    Files.writeString(tmp.resolve("outside.txt"), "secret");
    Files.createSymbolicLink(root.resolve("tasks/ledgers/april/source/link.csv"), tmp.resolve("outside.txt"));
    assertProblem(problems(() -> open(root)), "link.csv", "symbolic link");
  }

  @Test
  void aSourceFileWhoseNameIsNotUtf8IsRefusedNamingIt() throws Exception {
    Path root = copyExample();
    Path source = root.resolve("tasks/ledgers/april/source");
    // the JVM cannot write such a name itself: the shell's printf writes the bytes 0xE9 and 0xFF
    Process p = new ProcessBuilder("sh", "-c", "cd \"$1\" && : > \"$(printf 'caf\\351-\\377.csv')\"", "sh",
        source.toString()).inheritIO().start();
    assertEquals(0, p.waitFor());
    assertProblem(problems(() -> open(root)), source.toString(), "its name is not valid UTF-8", "rename it");
  }

  @Test
  void aSplitFileThatOverlapsOrNamesUnknownTasksIsRefused() throws IOException {
    Path root = copyExample();
    Files.writeString(root.resolve("splits.json"),
        "{\"train\": [\"ledgers/march\", \"nope/x\"], \"test\": [\"ledgers/march\"]}");
    List<String> p = problems(() -> FolderBenchmark.open(root, tmp, "train", config(), Map.of()));
    assertProblem(p, "nope/x", "not a task");
    assertProblem(p, "ledgers/march", "both train and test");
  }

  @Test
  void badValuesInBenchJsonNameTheirKey() throws IOException {
    Path root = copyExample();
    Files.writeString(root.resolve("bench.json"), "{\"name\": \"Bad Name\", \"executor\": {\"kind\": \"nope\"},"
        + " \"grader\": {\"kind\": \"expected\", \"x\": 1}, \"prompts\": {\"work\": \"w\"},"
        + " \"limits\": {\"timeout_seconds\": \"soon\"}}");
    List<String> p = problems(() -> open(root));
    assertProblem(p, "name", "Bad Name");
    assertProblem(p, "executor.kind", "nope", "not known", "known: [chat, codex");
    assertProblem(p, "grader.x", "unknown key");
    assertProblem(p, "limits.timeout_seconds", "whole number");

    Files.writeString(root.resolve("bench.json"), "{\"name\": \"b\", \"executor\": {\"kind\": \"codex\"},"
        + " \"grader\": {\"kind\": \"expected\"}, \"prompts\": {\"work\": \"w\"}, \"allow_subagents\": true}");
    assertProblem(problems(() -> open(root)), "allow_subagents", "the codex executor has no sub-agents");
    Files.writeString(root.resolve("bench.json"), "{\"name\": \"b\", \"executor\": {\"kind\": \"chat\"},"
        + " \"grader\": {\"kind\": \"expected\"}, \"prompts\": {\"work\": \"w\"}, \"allow_subagents\": \"yes\"}");
    assertProblem(problems(() -> open(root)), "allow_subagents", "true or false");
  }

  /** A bench.json that does not parse is named with where the parser stopped, and none of its text is quoted. */
  @Test
  void benchJsonThatDoesNotParseSaysWhere() throws IOException {
    Path root = copyExample();
    Files.writeString(root.resolve("bench.json"), "{\"name\": \"signed_sums\",\n  \"executor\": {\"kind\": \"chat\"\n");
    List<String> p = problems(() -> open(root));
    assertProblem(p, "bench.json: not valid JSON", "(line 3, column 1)");
    assertTrue(p.stream().noneMatch(s -> s.contains("Source") || s.contains("signed_sums")), p.toString());
  }

  @Test
  void promptsThatMentionMeasurementAreRefused() throws IOException {
    Path root = copyExample();
    Files.writeString(root.resolve("bench.json"), Files.readString(root.resolve("bench.json"))
        .replace("total the signed movements", "maximise the rubric score of"));
    assertProblem(problems(() -> open(root)), "prompts", "rubric");
  }
}
