package dev.h2beam.pipelines.sweep;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.h2beam.adapters.files.Json;
import dev.h2beam.adapters.model.SurfaceSpec;
import dev.h2beam.pipelines.UsageError;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Whose a library is: the runs root that first swept it; one an older h2beam wrote is adopted only by its own. */
class LibraryClaimTest {
  @TempDir Path tmp;

  /** A library entry as a sweep writes it, naming the run {@code run}. */
  Path entry(Path library, String run) throws Exception {
    Path e = library.resolve("agg/ledgers/harnesses/ledgers__april");
    Files.createDirectories(e.resolve("harness"));
    Files.writeString(e.resolve("EXPERIENCE.md"), "# ledgers/april\n\n- adopted: `agg1`  (run `" + run + "`)\n");
    return e.resolve("EXPERIENCE.md");
  }

  void claim(Path library, Path runs) throws Exception {
    LibraryClaim.claim(library, runs, runs.resolve("_executions"), List.of("agg"), SurfaceSpec.OPENCODE);
  }

  @Test
  void theFirstRunsRootRecordsTheLibraryAndAnotherIsRefusedNamingBoth() throws Exception {
    Path library = tmp.resolve("lib");
    claim(library, tmp.resolve("a"));
    assertEquals(tmp.resolve("a").toString(), Json.readMap(LibraryClaim.claimFile(library)).get("runs_root"));
    claim(library, tmp.resolve("a"));
    UsageError e = assertThrows(UsageError.class, () -> claim(library, tmp.resolve("b")));
    assertTrue(e.getMessage().contains("is the library of the runs root " + tmp.resolve("a")), e.getMessage());
    assertFalse(Files.exists(BenchRootClaim.idFile(tmp.resolve("b"))), "a refusal writes nothing");
  }

  @Test
  void anOlderLibraryIsAdoptedByTheRunsRootWhoseRolloutsItsEntriesNameAndNoOther() throws Exception {
    Path library = tmp.resolve("lib");
    Path experience = entry(library, "signed_sums-oc-agg2/ledgers/april/agg1");
    Files.createDirectories(tmp.resolve("a/_executions/signed_sums-oc-agg2/ledgers/april/agg1"));
    UsageError e = assertThrows(UsageError.class, () -> claim(library, tmp.resolve("b")));
    assertTrue(e.getMessage().startsWith("--libraryRoot=" + library + " records no runs root it belongs to"),
        e.getMessage());
    assertTrue(e.getMessage().contains(experience + " (run `signed_sums-oc-agg2/ledgers/april/agg1`)"),
        e.getMessage());
    assertFalse(Files.exists(LibraryClaim.claimFile(library)));
    claim(library, tmp.resolve("a"));
    assertEquals(tmp.resolve("a").toString(), Json.readMap(LibraryClaim.claimFile(library)).get("runs_root"));
  }

  @Test
  void anOlderLibraryInsideTheRunsRootOrEmptyIsAdopted() throws Exception {
    Path inside = tmp.resolve("a/_library/k2-oc");
    entry(inside, "signed_sums-oc-agg2/ledgers/april/agg1");
    assertNull(LibraryClaim.refusal(inside, tmp.resolve("a"), tmp.resolve("a/_executions"), List.of("agg"),
        SurfaceSpec.OPENCODE));
    assertNull(LibraryClaim.refusal(tmp.resolve("empty"), tmp.resolve("a"), tmp.resolve("a/_executions"),
        List.of("agg"), SurfaceSpec.OPENCODE));
  }
}
