package dev.h2beam.transforms.sweep;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.math.BigInteger;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A sweep's configuration keys the JVM's open contexts ({@link SweepContext#of}): its written-out hash agrees with the
 * record's equality, and every component it holds takes part in both.
 */
class SweepConfigTest {

  private static SweepConfig config(String runs, List<String> modes, String token, GateSettings gate) {
    return new SweepConfig("demo", "", Map.of("a", "1"), "oc", runs, "/lib", 2, modes, BigInteger.valueOf(7), 1, 2, 1,
        0, "", "", "demo", null, 1, token, gate);
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
        config("/runs", List.of("agg", "seq"), "t", new GateSettings("n", "p", 1.0)),
        config("/runs", List.of("agg", "seq"), "t", new GateSettings("m", "q", 1.0)),
        config("/runs", List.of("agg", "seq"), "t", new GateSettings("m", "p", 2.0)),
        a.withRootToken("v"))) {
      assertNotEquals(a, other);
      assertNotEquals(a.hashCode(), other.hashCode(), other.toString());
    }
  }

  /** The written-out equality and hash take in every component: a copy with any one of them changed is another. */
  @Test
  void everyComponentTakesPartInEqualityAndHash() throws Exception {
    SweepConfig a = config("/runs", List.of("agg", "seq"), "t", new GateSettings("m", "p", 1.0));
    java.lang.reflect.RecordComponent[] parts = SweepConfig.class.getRecordComponents();
    Class<?>[] types = java.util.Arrays.stream(parts).map(java.lang.reflect.RecordComponent::getType)
        .toArray(Class<?>[]::new);
    java.lang.reflect.Constructor<SweepConfig> make = SweepConfig.class.getDeclaredConstructor(types);
    Object[] values = new Object[parts.length];
    for (int i = 0; i < parts.length; i++) values[i] = parts[i].getAccessor().invoke(a);
    SweepConfig same = make.newInstance(values.clone());
    assertEquals(a, same);
    assertEquals(a.hashCode(), same.hashCode());
    for (int i = 0; i < parts.length; i++) {
      Object[] changed = values.clone();
      changed[i] = other(parts[i].getType(), values[i]);
      SweepConfig b = make.newInstance(changed);
      assertNotEquals(a, b, parts[i].getName());
      assertNotEquals(b, a, parts[i].getName());
      assertNotEquals(a.hashCode(), b.hashCode(), parts[i].getName());
    }
  }

  private static Object other(Class<?> type, Object value) {
    if (type == String.class) return value + "x";
    if (type == int.class) return (int) value + 1;
    if (type == boolean.class) return !(boolean) value;
    if (type == BigInteger.class) return value == null ? BigInteger.ONE : ((BigInteger) value).add(BigInteger.ONE);
    if (type == Map.class) return Map.of("a", "2");
    if (type == List.class) return List.of("gat");
    if (type == GateSettings.class) return new GateSettings("m", "p", 3.0);
    if (type == dev.h2beam.adapters.config.RunConfig.class) {
      return dev.h2beam.adapters.config.RunConfig.parse("endpoints:\n  local: {base_url: \"http://127.0.0.1:9/v1\"}\n"
          + "roles:\n  executor: {endpoint: local, model: m}\n", "test.yaml");
    }
    throw new AssertionError("no other value for a component of type " + type);
  }
}
