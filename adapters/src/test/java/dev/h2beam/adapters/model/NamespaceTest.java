package dev.h2beam.adapters.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigInteger;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The run namespace of spec §2.16 and the summary-namespace rule of §3.2. */
class NamespaceTest {
  private static BigInteger seed(long n) {
    return BigInteger.valueOf(n);
  }

  /** harness2's --seed is a Python int of any size: a seed wider than 64 bits names and parses back exactly. */
  @Test
  void aSeedWiderThanALongIsWrittenAndReadBackExactly() {
    BigInteger big = BigInteger.TWO.pow(70).add(seed(5));
    Namespace ns = new Namespace("demo", "oc", "agg", 2, big, "");
    assertEquals("demo-oc-agg2-s1180591620717411303429", ns.toString());
    assertEquals(ns, Namespace.parse(ns.toString()).orElseThrow());
    assertEquals(big.negate(), Namespace.parse("demo-oc-agg2-s-1180591620717411303429").orElseThrow().seed());
  }
  @Test
  void stringFormIsBenchSubstrateModeAndK() {
    assertEquals("demo-oc-agg2", Namespace.of("demo", "oc", "agg", 2).toString());
  }

  @Test
  void stringFormAppendsSeedThenTag() {
    assertEquals("jb-cx-seq3-s7", new Namespace("jb", "cx", "seq", 3, seed(7), "").toString());
    assertEquals("jb-cx-seq3-try.2", new Namespace("jb", "cx", "seq", 3, null, "try.2").toString());
    assertEquals("jb-cx-seq3-s7-try.2", new Namespace("jb", "cx", "seq", 3, seed(7), "try.2").toString());
  }

  @Test
  void nullTagMeansNoTag() {
    assertEquals("", new Namespace("demo", "oc", "agg", 1, null, null).tag());
  }

  @Test
  void modeOtherThanAggOrSeqIsRejected() {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> Namespace.of("demo", "oc", "parallel", 2));
    assertTrue(e.getMessage().contains("agg, seq or gat"), e.getMessage());
  }

  @Test
  void emptySubstrateIsRejected() {
    assertThrows(IllegalArgumentException.class, () -> Namespace.of("demo", "", "agg", 2));
    assertThrows(IllegalArgumentException.class, () -> Namespace.of("demo", null, "agg", 2));
  }

  @Test
  void kBelowOneIsRejected() {
    assertThrows(IllegalArgumentException.class, () -> Namespace.of("demo", "oc", "agg", 0));
  }

  @ParameterizedTest
  @ValueSource(strings = {"-x", "a b", "a/b", "ü", "x!"})
  void tagOutsideTheGrammarIsRejected(String tag) {
    assertThrows(IllegalArgumentException.class, () -> new Namespace("demo", "oc", "agg", 2, null, tag));
  }

  @ParameterizedTest
  @ValueSource(strings = {"s7", "s12", "s7-", "s7-x", "s0-try"})
  void tagThatImpersonatesASeedSegmentIsRejected(String tag) {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> new Namespace("demo", "oc", "agg", 2, null, tag));
    assertTrue(e.getMessage().contains("seed"), e.getMessage());
  }

  @ParameterizedTest
  @ValueSource(strings = {"s7x", "s", "sx-1", "seed", "S7", "x-s7", ".hidden", "_a-b.c"})
  void tagsThatCannotReadAsASeedAreAccepted(String tag) {
    assertEquals("demo-oc-agg2-" + tag, new Namespace("demo", "oc", "agg", 2, null, tag).toString());
  }

  @Test
  void runIdKeepsTheTaskIdUnmodified() {
    assertEquals("demo-oc-agg2-s7/a/1/agg1", new Namespace("demo", "oc", "agg", 2, seed(7), "").runId("a/1", "agg1"));
  }

  @Test
  void taskDirSlugsSlashesInTheTaskId() {
    Path root = Path.of("/runs");
    assertEquals(
        Path.of("/runs", "demo-oc-seq2", "a__b__1"), Namespace.of("demo", "oc", "seq", 2).taskDir(root, "a/b/1"));
    assertEquals("ledger-1", Namespace.slug("ledger-1"));
  }

  @Test
  void modeTokenAcceptsNamesAndTokensInAnyCaseTrimmed() {
    assertEquals("agg", Namespace.modeToken("parallel"));
    assertEquals("agg", Namespace.modeToken(" AGG "));
    assertEquals("seq", Namespace.modeToken("Sequential"));
    assertEquals("seq", Namespace.modeToken("seq\n"));
    assertEquals("gat", Namespace.modeToken("Gated"));
    assertEquals("demo-oc-gat2", Namespace.of("demo", "oc", "gat", 2).toString());
    assertEquals("gat", Namespace.parse("demo-oc-gat2").orElseThrow().mode());
    assertEquals("agg", Namespace.parse("demo-oc-gat2").orElseThrow().summary().mode());
  }

  @Test
  void unknownModeNameSaysWhichModesThereAre() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Namespace.modeToken("width"));
    assertTrue(e.getMessage().contains("parallel, sequential or gated"), e.getMessage());
    assertThrows(IllegalArgumentException.class, () -> Namespace.modeToken(null));
  }

  @Test
  void modeNameIsTheHumanNameOfAToken() {
    assertEquals("parallel", Namespace.modeName("agg"));
    assertEquals("sequential", Namespace.modeName("seq"));
    assertThrows(IllegalArgumentException.class, () -> Namespace.modeName("parallel"));
  }

  @Test
  void withModeKeepsEverythingElse() {
    Namespace agg = new Namespace("jb", "cx", "agg", 3, seed(5), "t");
    assertEquals(new Namespace("jb", "cx", "seq", 3, seed(5), "t"), agg.withMode("seq"));
    assertEquals(new Namespace("jb", "cx", "seq", 3, seed(5), "t"), agg.withMode("sequential"));
  }

  @Test
  void summaryNamespaceIsAlwaysTheAggOne() {
    assertEquals("demo-oc-agg2-s7", new Namespace("demo", "oc", "seq", 2, seed(7), "").summary().toString());
    assertEquals("demo-oc-agg2", Namespace.of("demo", "oc", "agg", 2).summary().toString());
  }

  @Test
  void globsMatchTheCellUnderAnySeedOrTag() {
    assertEquals(List.of("demo-oc-seq2", "demo-oc-seq2-*"),
        new Namespace("demo", "oc", "seq", 2, seed(9), "t").globs());
  }
}
