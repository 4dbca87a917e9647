package dev.h2beam.transforms.selection;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Anonymous selection ids: the §19.2 vectors (seed and id map) and the bijective base-26 id sequence. */
class AnonIdsTest {
  /** The §19.2 table; labels are agg1..aggk for agg and c1..ck for seq. */
  private static final String TABLE = """
      ledger-1, 1, agg, 42076889664785,  A=agg1
      ledger-1, 2, agg, 120398865327534, A=agg1 B=agg2
      ledger-1, 2, seq, 209986752902967, A=c1 B=c2
      ledger-1, 3, agg, 132115765097008, A=agg3 B=agg1 C=agg2
      ledger-1, 3, seq, 123459163858073, A=c2 B=c1 C=c3
      ledger-1, 4, agg, 279182715208018, A=agg4 B=agg2 C=agg3 D=agg1
      ledger-2, 2, agg, 188582326541259, A=agg2 B=agg1
      ledger-2, 2, seq, 111529702941339, A=c2 B=c1
      ledger-2, 3, seq, 78798142041010,  A=c1 B=c2 C=c3
      ledger-2, 4, seq, 121449914440164, A=c3 B=c4 C=c2 D=c1
      """;

  private static List<String> labels(int k, String mode) {
    List<String> labels = new ArrayList<>();
    // Reverse order, so the vectors also check that labels are sorted before the shuffle.
    for (int i = k; i >= 1; i--) labels.add(("agg".equals(mode) ? "agg" : "c") + i);
    return labels;
  }

  private static LinkedHashMap<String, String> idMap(String spec) {
    LinkedHashMap<String, String> map = new LinkedHashMap<>();
    for (String pair : spec.trim().split(" ")) {
      String[] kv = pair.split("=");
      map.put(kv[0], kv[1]);
    }
    return map;
  }

  @ParameterizedTest(name = "{0} k={1} {2}")
  @CsvSource(textBlock = TABLE)
  void seedIsFirstTwelveHexDigitsOfSha1(String task, int k, String mode, long seed, String ignored) {
    assertEquals(seed, AnonIds.seed(task, k, mode));
  }

  @ParameterizedTest(name = "{0} k={1} {2}")
  @CsvSource(textBlock = TABLE)
  void idMapMatchesPython(String task, int k, String mode, long ignored, String expected) {
    LinkedHashMap<String, String> ids = AnonIds.assign(labels(k, mode), task, k, mode);
    assertEquals(List.copyOf(idMap(expected).entrySet()), List.copyOf(ids.entrySet()));
  }

  @Test
  void labelsAreSortedAsStringsSoAgg10PrecedesAgg2() {
    // CPython: sorted -> [agg1, agg10, agg2], shuffled with seed 211800099229376 -> [agg1, agg2, agg10].
    LinkedHashMap<String, String> ids = AnonIds.assign(List.of("agg2", "agg10", "agg1"), "ledger-1", 10, "agg");
    assertEquals(List.copyOf(idMap("A=agg1 B=agg2 C=agg10").entrySet()), List.copyOf(ids.entrySet()));
  }

  @Test
  void reassigningGivesTheSameIds() {
    assertEquals(
        AnonIds.assign(labels(4, "seq"), "ledger-2", 4, "seq"),
        AnonIds.assign(List.of("c2", "c4", "c1", "c3"), "ledger-2", 4, "seq"));
  }

  /**
   * With a salt (the replicate's seed, --anonIds=replicate) the shuffle's seed is SHA-1 of
   * {@code "<task>|<k>|<mode>|<salt>"}: the same for the same salt, and over seeds the first id falls on each
   * candidate; without one it is harness2's, as the table above.
   */
  @Test
  void aSaltGivesEachReplicateItsOwnOrder() {
    assertEquals(Long.parseLong(dev.h2beam.adapters.files.Hashes.sha1Hex("ledger-1|3|agg|7").substring(0, 12), 16),
        AnonIds.seed("ledger-1", 3, "agg", "7"));
    assertEquals(AnonIds.seed("ledger-1", 3, "agg"), AnonIds.seed("ledger-1", 3, "agg", null));
    assertEquals(AnonIds.assign(labels(3, "agg"), "ledger-1", 3, "agg", "7"),
        AnonIds.assign(labels(3, "agg"), "ledger-1", 3, "agg", "7"));
    java.util.Set<String> firsts = new java.util.TreeSet<>();
    for (int seed = 1; seed <= 30; seed++) {
      firsts.add(AnonIds.assign(labels(3, "agg"), "ledger-1", 3, "agg", "" + seed).get("A"));
    }
    assertEquals(java.util.Set.of("agg1", "agg2", "agg3"), firsts);
  }

  @Test
  void noLabelsGiveAnEmptyMap() {
    assertEquals(new LinkedHashMap<String, String>(), AnonIds.assign(List.of(), "ledger-1", 2, "agg"));
  }

  @Test
  void idSequenceIsBijectiveBase26() {
    assertEquals("A", AnonIds.idFor(0));
    assertEquals("Z", AnonIds.idFor(25));
    assertEquals("AA", AnonIds.idFor(26));
    assertEquals("AZ", AnonIds.idFor(51));
    assertEquals("BA", AnonIds.idFor(52));
    assertEquals("ZZ", AnonIds.idFor(701));
    assertEquals("AAA", AnonIds.idFor(702));
  }

  @Test
  void negativeIdIndexIsRejected() {
    assertThrows(IllegalArgumentException.class, () -> AnonIds.idFor(-1));
  }
}
