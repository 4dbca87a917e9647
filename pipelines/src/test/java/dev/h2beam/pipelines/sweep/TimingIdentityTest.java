package dev.h2beam.pipelines.sweep;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The timing environment a namespace records: kept while equal, marked mixed (listing each) once it changed. */
class TimingIdentityTest {
  @Test
  void aChangedEnvironmentMarksTheNamespaceMixedListingEachOnce() {
    Map<String, Object> a = Map.of("runner", "DirectRunner", "workers", 1);
    Map<String, Object> b = Map.of("runner", "FlinkRunner", "workers", 2);
    assertEquals(a, Sweep.mergedTiming(null, a));
    assertEquals(a, Sweep.mergedTiming(a, Map.of("workers", 1, "runner", "DirectRunner")));
    Object mixed = Sweep.mergedTiming(a, b);
    assertEquals(Map.of("mixed", true, "environments", List.of(a, b)), mixed);
    assertEquals(mixed, Sweep.mergedTiming(mixed, a), "an environment already listed is not added again");
    Map<String, Object> c = Map.of("runner", "DirectRunner", "workers", 3);
    assertEquals(Map.of("mixed", true, "environments", List.of(a, b, c)), Sweep.mergedTiming(mixed, c));
  }
}
