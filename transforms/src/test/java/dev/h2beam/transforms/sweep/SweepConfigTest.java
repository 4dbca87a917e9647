package dev.h2beam.transforms.sweep;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A sweep's configuration keys the JVM's open contexts ({@link SweepContext#of}): its written-out hash agrees with the
 * record's equality, and every component it holds takes part in both.
 */
class SweepConfigTest {

  private static SweepConfig config(String runs, List<String> modes, String token, GateSettings gate) {
    return new SweepConfig("demo", "", Map.of("a", "1"), "oc", runs, "/lib", 2, modes, 7L, 1, 2, 1, 0, "", "", "demo",
        null, 1, token, gate);
  }

  @Test
  void equalConfigurationsHashEquallyAndAnyComponentTellsThemApart() {
    SweepConfig a = config("/runs", List.of("agg", "seq"), "t", new GateSettings("m", "p", 1.0));
    SweepConfig b = config("/runs", List.of("agg", "seq"), "t", new GateSettings("m", "p", 1.0));
    assertEquals(a, b);
    assertEquals(a.hashCode(), b.hashCode());
    for (SweepConfig other : List.of(config("/other", List.of("agg", "seq"), "t", new GateSettings("m", "p", 1.0)),
        config("/runs", List.of("agg"), "t", new GateSettings("m", "p", 1.0)),
        config("/runs", List.of("agg", "seq"), "u", new GateSettings("m", "p", 1.0)),
        config("/runs", List.of("agg", "seq"), "t", new GateSettings("m", "q", 1.0)),
        config("/runs", List.of("agg", "seq"), "t", new GateSettings("m", "p", 2.0)),
        a.withRootToken("v"))) {
      assertNotEquals(a, other);
      assertNotEquals(a.hashCode(), other.hashCode(), other.toString());
    }
  }
}
