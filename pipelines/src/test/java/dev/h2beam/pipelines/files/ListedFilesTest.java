package dev.h2beam.pipelines.files;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The judge's and report's file listing: one folder level, as Beam's match of the same pattern would find. */
class ListedFilesTest {
  @TempDir Path ns;

  @Test
  void aFileInEachSubFolderIsFoundAndNothingDeeper() throws Exception {
    Files.createDirectories(ns.resolve("t2"));
    Files.writeString(ns.resolve("t2/summary.json"), "{}");
    Files.createDirectories(ns.resolve("t1/context/x"));
    Files.writeString(ns.resolve("t1/summary.json"), "{}");
    Files.writeString(ns.resolve("t1/context/x/summary.json"), "{}");
    Files.createDirectories(ns.resolve("t3"));
    Files.createDirectories(ns.resolve("t4/summary.json"));
    Files.writeString(ns.resolve("summary.json"), "{}");
    assertEquals(List.of(ns.resolve("t1/summary.json"), ns.resolve("t2/summary.json")),
        ListedFiles.list(ns.resolve("*").resolve("summary.json").toString()));
  }

  @Test
  void aTaskFolderThatCannotBeLookedIntoIsListedForItsReaderToNameNotSkipped() throws Exception {
    Files.createDirectories(ns.resolve("t1"));
    Files.writeString(ns.resolve("t1/summary.json"), "{}");
    // a link to itself cannot be resolved, as a folder of another user's cannot be searched: whether it holds a
    // summary cannot be told (the permission case needs a user other than root, who may look anywhere)
    Files.createSymbolicLink(ns.resolve("t2"), ns.resolve("t2"));
    Files.createSymbolicLink(ns.resolve("t3"), ns.resolve("gone"));
    Files.writeString(ns.resolve("config.json"), "{}");
    assertEquals(List.of(ns.resolve("t1/summary.json"), ns.resolve("t2/summary.json")),
        ListedFiles.list(ns.resolve("*").resolve("summary.json").toString()));
  }

  @Test
  void aPlainFileIsFoundWhenItExistsAndAMissingFolderMatchesNothing() throws Exception {
    Files.writeString(ns.resolve("judged.json"), "[]");
    assertEquals(List.of(ns.resolve("judged.json")), ListedFiles.list(ns.resolve("judged.json").toString()));
    assertEquals(List.of(), ListedFiles.list(ns.resolve("config.json").toString()));
    assertEquals(List.of(), ListedFiles.list(ns.resolve("gone/*/summary.json").toString()));
  }

  @Test
  void otherWildcardsAreRefused() {
    assertThrows(IllegalArgumentException.class, () -> ListedFiles.list(ns.resolve("*.json").toString()));
    assertThrows(IllegalArgumentException.class, () -> ListedFiles.list(ns.resolve("*/*/summary.json").toString()));
    assertThrows(IllegalArgumentException.class, () -> ListedFiles.list(ns.resolve("a*/summary.json").toString()));
  }
}
