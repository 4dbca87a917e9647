package dev.h2beam.demo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Latencies: three forms, draws that depend only on seed and key, and errors naming the flag. */
class LatencyTest {

  @Test
  void aFixedLatencyIsTheSameForEveryKey() {
    Latency l = Latency.parse("--executorLatencyMs", "500", 7);
    assertEquals(500, l.millis("a"));
    assertEquals(500, l.millis("b"));
    assertEquals(500, l.meanMs());
    assertEquals("500", l.text());
  }

  @Test
  void aUniformDrawStaysInItsRangeAndDependsOnlyOnSeedAndKey() {
    Latency l = Latency.parse("--sessionLatencyMs", "uniform:20:80", 7);
    Set<Long> seen = new HashSet<>();
    for (int i = 0; i < 200; i++) {
      long ms = l.millis("key" + i);
      assertTrue(ms >= 20 && ms <= 80, "drew " + ms);
      assertEquals(ms, Latency.parse("--sessionLatencyMs", "uniform:20:80", 7).millis("key" + i));
      seen.add(ms);
    }
    assertTrue(seen.size() > 20, "varied: " + seen);
    assertEquals(50, l.meanMs());
    assertEquals(Latency.parse("x", l.text(), 7), l);
  }

  @Test
  void anExponentialDrawHasItsMeanAndAnotherSeedDrawsOtherwise() {
    Latency l = Latency.parse("--executorLatencyMs", "exp:50", 1);
    double sum = 0;
    for (int i = 0; i < 4000; i++) sum += l.millis("run" + i);
    assertEquals(50, sum / 4000, 5);
    Latency other = Latency.parse("--executorLatencyMs", "exp:50", 2);
    int differ = 0;
    for (int i = 0; i < 50; i++) if (l.millis("run" + i) != other.millis("run" + i)) differ++;
    assertNotEquals(0, differ);
  }

  @Test
  void aBadLatencyNamesTheFlagAndTheForms() {
    for (String bad : new String[] {"fast", "-5", "uniform:80:20", "uniform:1", "exp:", "exp:1:2", "NaN", ""}) {
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
          () -> Latency.parse("--sessionLatencyMs", bad, 0), bad);
      assertTrue(e.getMessage().startsWith("--sessionLatencyMs=" + bad + " is not a latency; use"), e.getMessage());
      assertTrue(e.getMessage().contains("uniform:MIN:MAX"), e.getMessage());
    }
  }
}
