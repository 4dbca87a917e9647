package dev.h2beam.adapters.files;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class WrittenTreesTest {
  @TempDir Path dir;

  private void remember(String rel) {
    WrittenTrees.remember(dir.resolve(rel), "oc", List.of("f"), Map.of("f", rel), Map.of("f", rel));
  }

  /** Forgetting a folder forgets it and every folder below it, and no folder whose name only starts the same. */
  @Test void forgetsAFolderAndWhatIsBelowItOnly() {
    for (String rel : List.of("a", "a/b", "a/b/c", "a-b", "ab", "a0", "b/a")) remember(rel);

    WrittenTrees.forget(dir.resolve("a"));

    for (String gone : List.of("a", "a/b", "a/b/c")) assertNull(WrittenTrees.of(dir.resolve(gone)), gone);
    for (String kept : List.of("a-b", "ab", "a0", "b/a")) assertNotNull(WrittenTrees.of(dir.resolve(kept)), kept);

    WrittenTrees.forget(dir.resolve("b/a/../a/."));   // the same folder, named otherwise
    assertNull(WrittenTrees.of(dir.resolve("b/a")));
    WrittenTrees.forget(dir.resolve("missing"));
    assertNotNull(WrittenTrees.of(dir.resolve("ab")));
    WrittenTrees.forget(dir);
    for (String rel : List.of("a-b", "ab", "a0")) assertNull(WrittenTrees.of(dir.resolve(rel)), rel);
  }

  /** A folder written again is remembered anew after it was forgotten with its parent. */
  @Test void aFolderRememberedAgainAfterItsParentWasForgotten() {
    remember("p/q");
    WrittenTrees.forget(dir.resolve("p"));
    assertNull(WrittenTrees.of(dir.resolve("p/q")));
    remember("p/q");
    assertNotNull(WrittenTrees.of(dir.resolve("p/q")));
    WrittenTrees.forget(dir.resolve("p/q"));
    assertNull(WrittenTrees.of(dir.resolve("p/q")));
  }
}
