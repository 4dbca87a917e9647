package dev.h2beam.transforms.selection;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** CPython {@code random.Random} parity: the §19.1 vectors plus further values produced by CPython 3. */
class PyRandomTest {
  private static final List<String> LETTERS = List.of("a", "b", "c", "d", "e", "f", "g", "h", "i", "j");

  private static long[] draws(PyRandom random, int n) {
    long[] out = new long[n];
    for (int i = 0; i < n; i++) out[i] = random.genrandUint32();
    return out;
  }

  private static List<String> shuffled(PyRandom random) {
    List<String> letters = new ArrayList<>(LETTERS);
    random.shuffle(letters);
    return letters;
  }

  @Test
  void stringSeedDomainsFirstThreeOutputsMatchCPython() {
    assertArrayEquals(new long[] {3930345108L, 175840670L, 3994885356L}, draws(new PyRandom("7:__domains__"), 3));
  }

  @Test
  void intSeedFirstThreeOutputsMatchCPython() {
    assertArrayEquals(new long[] {1110125019L, 1425908211L, 3164393136L}, draws(new PyRandom(120398865327534L), 3));
  }

  @Test
  void shuffleWithStringSeedMatchesCPython() {
    assertEquals(List.of("f", "d", "j", "b", "g", "a", "e", "i", "h", "c"), shuffled(new PyRandom("7:accounting")));
  }

  @Test
  void shuffleWithIntSeedMatchesCPython() {
    assertEquals(List.of("h", "d", "c", "i", "f", "g", "j", "e", "a", "b"), shuffled(new PyRandom(42)));
  }

  @Test
  void outputsAcrossStateRegenerationMatchCPython() {
    long[] out = draws(new PyRandom(42), 1250);
    assertArrayEquals(new long[] {2929454134L, 1071722055L, 4083988011L}, new long[] {out[623], out[624], out[1249]});
  }

  @Test
  void zeroSeedUsesKeyOfOneZeroWord() {
    assertArrayEquals(new int[] {0}, PyRandom.key(BigInteger.ZERO));
    assertEquals(3626764237L, new PyRandom(0).genrandUint32());
  }

  @Test
  void negativeSeedSeedsLikeItsAbsoluteValue() {
    assertArrayEquals(draws(new PyRandom(42), 5), draws(new PyRandom(-42), 5));
  }

  @Test
  void keyIsLeastSignificantWordFirst() {
    BigInteger n = BigInteger.ONE.shiftLeft(70).add(BigInteger.valueOf(12345));
    assertArrayEquals(new int[] {12345, 0, 64}, PyRandom.key(n));
  }

  @Test
  void seedWiderThanALongMatchesCPython() {
    BigInteger n = BigInteger.ONE.shiftLeft(70).add(BigInteger.valueOf(12345));
    assertArrayEquals(new long[] {4124372728L, 1880144277L}, draws(new PyRandom(n), 2));
  }

  /** random.seed(n) for n of any size (harness2's --seed is a Python int): values printed by CPython 3. */
  @Test
  void seedsOfAnySizeMatchCPython() {
    BigInteger big = BigInteger.TWO.pow(70).add(BigInteger.valueOf(5));
    assertArrayEquals(new long[] {2004888747L, 1674612923L, 2039552273L}, draws(new PyRandom(big), 3));
    assertArrayEquals(new long[] {2004888747L, 1674612923L, 2039552273L}, draws(new PyRandom(big.negate()), 3));
    assertArrayEquals(new long[] {4198958755L, 3158798261L, 1593907883L},
        draws(new PyRandom(BigInteger.TWO.pow(64)), 3));
    assertArrayEquals(new long[] {93740670L, 1068495656L, 1452108352L},
        draws(new PyRandom(BigInteger.TWO.pow(64).subtract(BigInteger.ONE)), 3));
    assertArrayEquals(new long[] {1113893477L, 3225856549L, 2426182661L},
        draws(new PyRandom(BigInteger.TEN.pow(30).add(BigInteger.valueOf(7))), 3));
    assertArrayEquals(new long[] {485306839L, 1508871100L, 1794561286L}, draws(new PyRandom(1L << 32), 3));
  }

  @Test
  void shuffleWithASeedWiderThanALongMatchesCPython() {
    BigInteger big = BigInteger.TWO.pow(70).add(BigInteger.valueOf(5));
    assertEquals(List.of("d", "b", "a", "e", "i", "c", "f", "j", "g", "h"), shuffled(new PyRandom(big)));
    assertEquals(List.of("j", "g", "h", "b", "d", "a", "c", "f", "i", "e"),
        shuffled(new PyRandom(BigInteger.TEN.pow(30).add(BigInteger.valueOf(7)))));
  }

  @Test
  void randomWithASeedWiderThanALongMatchesCPython() {
    assertEquals(0.46679953776226335, new PyRandom(BigInteger.TWO.pow(70).add(BigInteger.valueOf(5))).random());
  }

  @Test
  void nonAsciiStringSeedIsHashedAsUtf8() {
    assertArrayEquals(new long[] {282002985L, 1392959543L}, draws(new PyRandom("ü:日本"), 2));
  }

  @Test
  void getrandbitsTakesTheTopBitsOfOneOutput() {
    PyRandom random = new PyRandom(42);
    assertEquals(List.of(20L, 3L, 0L), List.of(random.getrandbits(5), random.getrandbits(5), random.getrandbits(5)));
  }

  @Test
  void getrandbitsOutsideOneToThirtyTwoIsRejected() {
    assertThrows(IllegalArgumentException.class, () -> new PyRandom(1).getrandbits(0));
    assertThrows(IllegalArgumentException.class, () -> new PyRandom(1).getrandbits(33));
  }

  @Test
  void randbelowMatchesCPythonRejectionSampling() {
    PyRandom random = new PyRandom(42);
    List<Integer> out = new ArrayList<>();
    for (int i = 0; i < 5; i++) out.add(random.randbelow(10));
    assertEquals(List.of(1, 0, 4, 3, 3), out);
  }

  @Test
  void randbelowOneStillConsumesADraw() {
    PyRandom random = new PyRandom(42);
    assertEquals(0, random.randbelow(1));
    assertEquals(0, random.randbelow(1));
    assertEquals(3184935163L, random.genrandUint32());
  }

  @Test
  void randbelowBelowOneIsRejected() {
    assertThrows(IllegalArgumentException.class, () -> new PyRandom(1).randbelow(0));
  }

  @Test
  void initByArrayReseedsToTheSameStateAsTheConstructor() {
    PyRandom random = new PyRandom(7);
    random.genrandUint32();
    random.initByArray(PyRandom.key(BigInteger.valueOf(42)));
    assertArrayEquals(draws(new PyRandom(42), 700), draws(random, 700));
  }

  @Test
  void stringOrderComparesCodePointsNotUtf16Units() {
    String supplementary = new String(Character.toChars(0x1F600));
    String bmpHigh = "\uFB01";
    assertTrue(supplementary.compareTo(bmpHigh) < 0);
    assertTrue(PyRandom.STRING_ORDER.compare(bmpHigh, supplementary) < 0);
    assertTrue(PyRandom.STRING_ORDER.compare("agg10", "agg2") < 0);
    assertTrue(PyRandom.STRING_ORDER.compare("a", "ab") < 0);
  }
}
