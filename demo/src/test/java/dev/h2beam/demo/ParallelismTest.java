package dev.h2beam.demo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The files a sweep writes do not depend on the runner's parallelism (ARCHITECTURE.md, determinism). */
class ParallelismTest {

  @Test
  void targetParallelismOneAndEightWriteIdenticalSummariesSelectionsAndLibraries(@TempDir Path a, @TempDir Path b)
      throws Exception {
    assertEquals(0, DemoRuns.demo(a, "--targetParallelism=1", "--phaseWidth=1"));
    assertEquals(0, DemoRuns.demo(b, "--targetParallelism=8", "--phaseWidth=4", "--sessionLimit=4",
        "--rolloutLimit=4"));
    TreeMap<String, String> left = files(a);
    TreeMap<String, String> right = files(b);
    assertFalse(left.isEmpty());
    assertEquals(left.keySet(), right.keySet());
    for (String rel : left.keySet()) assertEquals(left.get(rel), right.get(rel), rel);
  }

  /** summary.json, selection.json and library files, with the output root replaced by a placeholder. */
  static TreeMap<String, String> files(Path root) throws Exception {
    TreeMap<String, String> out = new TreeMap<>();
    try (Stream<Path> s = Files.walk(root)) {
      for (Path p : s.filter(Files::isRegularFile).toList()) {
        String rel = root.relativize(p).toString();
        String name = p.getFileName().toString();
        if (List.of("summary.json", "selection.json").contains(name) || rel.startsWith("library/")) {
          out.put(rel, Files.readString(p).replace(root.toString(), "<root>"));
        }
      }
    }
    return out;
  }
}
