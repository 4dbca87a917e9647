package dev.h2beam.pipelines.sweep;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.h2beam.adapters.files.Json;
import dev.h2beam.pipelines.UsageError;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Who owns a benchmark folder's rollouts: the runs root that first swept it, known by an identity that moves. */
class BenchRootClaimTest {

  @Test
  void theFirstRunsRootClaimsTheFolderAndAnotherIsRefused(@TempDir Path tmp) throws Exception {
    Path bench = tmp.resolve("bench");
    Path runs = tmp.resolve("runs");
    BenchRootClaim.claim(bench, runs);
    Map<String, Object> claim = Json.readMap(BenchRootClaim.claimFile(bench));
    assertEquals(runs.toString(), claim.get("runs_root"));
    assertEquals(Files.readString(BenchRootClaim.idFile(runs)).strip(), claim.get("runs_root_id"));
    byte[] before = Files.readAllBytes(BenchRootClaim.claimFile(bench));
    BenchRootClaim.claim(bench, runs); // its own again: nothing changes
    assertEquals(new String(before), Files.readString(BenchRootClaim.claimFile(bench)));

    // the dry run's look: the same refusal, and nothing written
    assertEquals(null, BenchRootClaim.refusal(bench, runs));
    String told = BenchRootClaim.refusal(bench, tmp.resolve("other"));
    UsageError e = assertThrows(UsageError.class, () -> BenchRootClaim.claim(bench, tmp.resolve("other")));
    assertEquals(told, e.getMessage());
    assertTrue(e.getMessage().startsWith("--benchRoot=" + bench + " keeps the rollouts and libraries of the runs"
        + " root " + runs + " (" + BenchRootClaim.claimFile(bench) + ")"), e.getMessage());
    assertTrue(!e.getMessage().contains("start afresh"), "the owner exists: no advice to delete its rollouts");
    assertEquals(new String(before), Files.readString(BenchRootClaim.claimFile(bench)), "a refusal writes nothing");
    assertFalse(Files.exists(BenchRootClaim.idFile(tmp.resolve("other"))), "not even the refused runs root's id");
  }

  @Test
  void aRunsRootMovedWithItsFolderKeepsTheClaimAndTheClaimFollows(@TempDir Path tmp) throws Exception {
    BenchRootClaim.claim(tmp.resolve("a/bench"), tmp.resolve("a/runs"));
    Files.move(tmp.resolve("a"), tmp.resolve("b"));
    BenchRootClaim.claim(tmp.resolve("b/bench"), tmp.resolve("b/runs"));
    Map<String, Object> claim = Json.readMap(BenchRootClaim.claimFile(tmp.resolve("b/bench")));
    assertEquals(tmp.resolve("b/runs").toString(), claim.get("runs_root"));
    assertEquals(tmp.resolve("b/bench").toString(), claim.get("bench_root"));
  }

  @Test
  void aClaimThatCannotBeReadIsRefusedNamingTheFile(@TempDir Path tmp) throws Exception {
    Path bench = tmp.resolve("bench");
    Files.createDirectories(BenchRootClaim.claimFile(bench).getParent());
    for (String text : new String[] {"{\"runs_root\": ", "{\"runs_root\": \"/x\"}", "[]"}) {
      Files.writeString(BenchRootClaim.claimFile(bench), text);
      UsageError e = assertThrows(UsageError.class, () -> BenchRootClaim.claim(bench, tmp.resolve("runs")));
      assertTrue(e.getMessage().startsWith(BenchRootClaim.claimFile(bench) + " is not a claim h2beam can read"),
          e.getMessage());
      assertEquals(text, Files.readString(BenchRootClaim.claimFile(bench)));
    }
  }
}
