package dev.h2beam.pipelines;

import static dev.h2beam.pipelines.OptionArgsTest.refused;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** Every folder flag of every command refuses a value that would quietly mean another folder. */
class FolderFlagsTest {
  static final String CWD = Path.of("").toAbsolutePath().toString();

  @Test
  void anEmptyFolderFlagIsRefusedInsteadOfMeaningTheCurrentFolder() {
    assertEquals("error: --benchRoot= is empty, which would mean the current folder (" + CWD + "); give the folder,"
        + " e.g. --benchRoot=examples/folder-bench, or leave the flag out for its default",
        refused("sweep", "--bench=folder", "--benchRoot="));
    assertTrue(refused("sweep", "--bench=folder", "--benchRoot=/tmp/b", "--runsRoot=")
        .startsWith("error: --runsRoot= is empty"));
    assertTrue(refused("sweep", "--bench=folder", "--benchRoot=/tmp/b", "--libraryRoot=")
        .startsWith("error: --libraryRoot= is empty"));
    assertTrue(refused("report", "--namespaces=/tmp/x", "--output=").startsWith("error: --output= is empty"));
    assertTrue(refused("check", "--bench=folder", "--benchRoot=").startsWith("error: --benchRoot= is empty"));
    assertTrue(refused("judge", "--namespaces=/tmp/x", "--benchRoot=").startsWith("error: --benchRoot= is empty"));
  }

  /** dogZ #12: a key pasted into a folder's name would reach every path h2beam records; refused, never shown. */
  @Test
  void aFolderNamedWithAHeldKeyIsRefusedWithoutShowingIt() {
    String key = "sk-folder-7Q9xK2mP4vL8nR3tW6yB";
    java.util.List<dev.h2beam.adapters.config.EnvKeys.Held> was = dev.h2beam.adapters.config.EnvKeys.use(
        java.util.Map.of("LAB_API_KEY", key));
    try {
      String refused = refused("sweep", "--bench=folder", "--benchRoot=/tmp/b", "--runsRoot=/tmp/runs-" + key);
      assertEquals("error: --runsRoot=/tmp/runs-[redacted key] holds the value of $LAB_API_KEY, a key h2beam holds:"
          + " its folders' names would write the key into the paths every record keeps; choose another folder",
          refused);
      assertTrue(refused("report", "--namespaces=/tmp/x/" + key + "/ns").contains("holds the value of $LAB_API_KEY"));
    } finally {
      dev.h2beam.adapters.config.EnvKeys.restore(was);
    }
  }

  @Test
  void aBlankOrPaddedFolderIsRefused() {
    assertEquals("error: --runsRoot='  ' has white space around the folder name; remove it (a folder whose name"
        + " really starts or ends with a space is not supported)",
        refused("sweep", "--bench=folder", "--benchRoot=/tmp/b", "--runsRoot=  "));
    assertTrue(refused("report", "--namespaces=/tmp/x", "--output=out ").startsWith("error: --output='out ' has"));
    assertTrue(refused("report", "--namespaces= ").startsWith("error: --namespaces=' ' has white space"));
  }

  @Test
  void theCurrentFolderOrItsParentIsRefusedForAFolderH2beamWrites() {
    assertEquals("error: --runsRoot=. is the current folder (" + CWD + "): h2beam would write its folders and files"
        + " among yours there; give a folder of its own, e.g. --runsRoot=runs/folder/runs",
        refused("sweep", "--bench=folder", "--benchRoot=/tmp/b", "--runsRoot=."));
    assertTrue(refused("sweep", "--bench=folder", "--benchRoot=/tmp/b", "--libraryRoot=..")
        .startsWith("error: --libraryRoot=.. is a parent of the current folder"));
    assertTrue(refused("report", "--namespaces=/tmp/x", "--output=./")
        .startsWith("error: --output=./ is the current folder"));
  }

  @Test
  void anUnexpandedTildeOrVariableIsRefused() {
    assertEquals("error: --libraryRoot=~/lib starts with '~', which the shell expands only at the start of a word,"
        + " so it would create a folder named '~'; write the absolute path (or $HOME/..., unquoted)",
        refused("sweep", "--bench=folder", "--benchRoot=/tmp/b", "--libraryRoot=~/lib"));
    assertEquals("error: --namespaces=$RUNS/demo-oc-agg2 holds $RUNS, a shell variable that was not expanded (was"
        + " the flag in single quotes?); write the folder's path, or use double quotes",
        refused("judge", "--namespaces=/tmp/a, $RUNS/demo-oc-agg2"));
    assertTrue(refused("report", "--namespaces=${HOME}/x").startsWith("error: --namespaces=${HOME}/x holds ${HOME}"));
  }
  /**
   * A runs root whose path holds what --namespaces reads as glob syntax or as its list separator would hold
   * namespaces that no judge or report could ever name: the sweep refuses it before anything is written, and the
   * benchmark folder too when the runs root defaults to its runs/ folder. '?' matches itself and stays allowed, as
   * do such characters in a report's output or a library root.
   */
  @Test
  void aRunsRootThatNamespacesCouldNotNameIsRefused() {
    assertEquals("error: --runsRoot=/tmp/runs,v2 holds ',', which ./h2beam judge and report read in --namespaces as"
        + " the separator between folders: the namespaces written under it could never be judged or reported; give"
        + " --runsRoot a folder whose path has none of '*', '[', ']', '{', '}', ','",
        refused("sweep", "--bench=folder", "--benchRoot=/tmp/b", "--runsRoot=/tmp/runs,v2"));
    for (char c : "*[]{}".toCharArray()) {
      assertEquals("error: --runsRoot=/tmp/r" + c + "/runs holds '" + c + "', which ./h2beam judge and report read in"
          + " --namespaces as glob syntax: the namespaces written under it could never be judged or reported; give"
          + " --runsRoot a folder whose path has none of '*', '[', ']', '{', '}', ','",
          refused("sweep", "--bench=folder", "--benchRoot=/tmp/b", "--runsRoot=/tmp/r" + c + "/runs"));
    }
    assertEquals("error: --benchRoot=/tmp/bench{1} holds '{', which ./h2beam judge and report read in --namespaces as"
        + " glob syntax: the namespaces written under it could never be judged or reported; the runs root defaults to"
        + " its runs/ folder: give --runsRoot a folder whose path has none of '*', '[', ']', '{', '}', ','",
        refused("sweep", "--bench=folder", "--benchRoot=/tmp/bench{1}"));
    // given a runs root of its own, the benchmark folder is read as a path only; '?' matches itself; a library
    // root's and a report output's paths are never read through --namespaces
    for (String[] ok : new String[][] {{"sweep", "--bench=folder", "--benchRoot=/tmp/no-such-bench{1}",
        "--runsRoot=/tmp/runs"}, {"sweep", "--bench=folder", "--benchRoot=/tmp/no-such-bench", "--runsRoot=/tmp/r?"},
        {"sweep", "--bench=folder", "--benchRoot=/tmp/no-such-bench", "--libraryRoot=/tmp/lib,v2"},
        {"report", "--namespaces=/tmp/no-such-ns", "--output=/tmp/report,v2"}}) {
      java.io.ByteArrayOutputStream err = new java.io.ByteArrayOutputStream();
      Main.run(ok, new java.io.PrintStream(new java.io.ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
          new java.io.PrintStream(err, true, StandardCharsets.UTF_8));
      String said = err.toString(StandardCharsets.UTF_8);
      assertTrue(!said.contains("--namespaces as"), String.join(" ", ok) + ": " + said);
    }
  }

  @Test
  void aRunsRootUnderACurrentFolderNamespacesCouldNotNameIsRefusedNamingIt() {
    Path cwd = Path.of("/home/me/runs,here");
    UsageError left = assertThrows(UsageError.class,
        () -> FolderFlags.namespacesUnder("--runsRoot", null, "give --runsRoot another folder", cwd));
    assertEquals("--runsRoot is left out, so its default is under the current folder " + cwd + ", whose path holds"
        + " ',', which ./h2beam judge and report read in --namespaces as the separator between folders: the"
        + " namespaces written under it could never be judged or reported; give --runsRoot another folder",
        left.getMessage());
    UsageError relative = assertThrows(UsageError.class,
        () -> FolderFlags.namespacesUnder("--output", "runs/demo", "give --output another folder", cwd));
    assertTrue(relative.getMessage().startsWith("--output=runs/demo is under the current folder " + cwd + ", whose"
        + " path holds ','"), relative.getMessage());
    // an absolute folder is where it says, whatever the current folder
    FolderFlags.namespacesUnder("--runsRoot", "/tmp/runs", "unused", cwd);
  }
}
