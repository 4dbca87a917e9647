package dev.h2beam.pipelines.judge;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.h2beam.adapters.files.Runmark;
import dev.h2beam.pipelines.judge.EvidenceCheck.Marker;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class EvidenceCheckTest {

  /** The marker's look answers the same whichever probe goes first, for every kind of run dir and marker. */
  @Test
  void bothOrdersOfTheMarkersLookGiveTheSameAnswer(@TempDir Path tmp) throws Exception {
    Path marked = Files.createDirectories(tmp.resolve("marked"));
    Files.writeString(marked.resolve(Runmark.MARKER), "{}");
    Path unmarked = Files.createDirectories(tmp.resolve("unmarked"));
    Path folderMarker = Files.createDirectories(tmp.resolve("folder-marker").resolve(Runmark.MARKER)).getParent();
    Path dangling = Files.createDirectories(tmp.resolve("dangling"));
    Files.createSymbolicLink(dangling.resolve(Runmark.MARKER), tmp.resolve("nowhere"));
    Path linkedRun = Files.createSymbolicLink(tmp.resolve("linked"), marked);
    Path fileRun = Files.writeString(tmp.resolve("a-file"), "not a folder");
    Path missing = tmp.resolve("missing");

    Object[][] cases = {
        {marked, Marker.FILE}, {unmarked, Marker.MISSING}, {folderMarker, Marker.OTHER}, {dangling, Marker.MISSING},
        {linkedRun, Marker.FILE}, {fileRun, Marker.NO_RUN_DIR}, {missing, Marker.NO_RUN_DIR}};
    for (Object[] c : cases) {
      Path run = (Path) c[0];
      assertEquals(c[1], EvidenceCheck.lookAtMarker(run, true), run + ", a marker expected");
      assertEquals(c[1], EvidenceCheck.lookAtMarker(run, false), run + ", no marker expected");
    }
  }
}
