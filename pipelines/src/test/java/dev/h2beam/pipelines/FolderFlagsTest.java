package dev.h2beam.pipelines;

import static dev.h2beam.pipelines.OptionArgsTest.refused;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

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
}
