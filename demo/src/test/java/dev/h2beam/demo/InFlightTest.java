package dev.h2beam.demo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The job-wide count in flight, from the intervals the journals record. */
class InFlightTest {
  static Instant[] at(int from, int to) {
    return new Instant[] {Instant.ofEpochSecond(from), Instant.ofEpochSecond(to)};
  }

  @Test
  void thePeakIsTheMostIntervalsThatOverlapAtOneInstant() {
    assertEquals(0, InFlight.peak(List.of()));
    assertEquals(2, InFlight.peak(List.of(at(0, 2), at(1, 3), at(2, 4))));
    assertEquals(3, InFlight.peak(List.of(at(0, 9), at(1, 3), at(2, 4))));
  }

  @Test
  void theMeanIsTheTimeHeldWithinTheWindowOverItsLength() {
    // 0-4 and 2-6 over the window 0-8: 4 + 4 seconds held in 8
    assertEquals(1.0, InFlight.mean(List.of(at(0, 4), at(2, 6)), Instant.ofEpochSecond(0), Instant.ofEpochSecond(8)));
    // only the part inside the window counts: 2 of 0-4 and 2 of 6-10 in the window 2-8
    assertEquals(4.0 / 6, InFlight.mean(List.of(at(0, 4), at(6, 10), at(8, 9)), Instant.ofEpochSecond(2),
        Instant.ofEpochSecond(8)), 1e-12);
    assertEquals(0.0, InFlight.mean(List.of(), Instant.ofEpochSecond(0), Instant.ofEpochSecond(1)));
    assertTrue(Double.isNaN(InFlight.mean(List.<Instant[]>of(at(0, 1)), Instant.ofEpochSecond(1), Instant.ofEpochSecond(1))),
        "an empty window has no mean, not a zero");
  }

  @Test
  void aSlotGivenBackAndTakenAtTheSameInstantIsNotTwoInFlight() {
    assertEquals(1, InFlight.peak(List.of(at(0, 1), at(1, 2), at(2, 3))));
    assertEquals(List.of(0), InFlight.atPeak(List.of(at(0, 1), at(1, 2), at(2, 3))));
  }

  @Test
  void theIntervalsAtThePeakAreThoseOpenAtItsFirstInstantInTheOrderTheyStarted() {
    assertEquals(List.of(), InFlight.atPeak(List.of()));
    assertEquals(List.of(2, 0, 1), InFlight.atPeak(List.of(at(1, 9), at(2, 4), at(0, 3), at(5, 6), at(4, 5))));
    // two peaks of two: the first
    assertEquals(List.of(1, 0), InFlight.atPeak(List.of(at(1, 3), at(0, 2), at(5, 7), at(6, 8))));
  }

  @Test
  void theIntervalsComeFromEveryRecordAndEveryAttemptSinceTheStart() throws IOException {
    String twoAttempts = "{\"held\":[{\"ended_at\":\"1970-01-01T00:00:02Z\",\"started_at\":\"1970-01-01T00:00:01Z\"},"
        + "{\"ended_at\":\"1970-01-01T00:00:04Z\",\"started_at\":\"1970-01-01T00:00:03Z\"}],\"key\":\"a\"}";
    String before = "{\"held\":[{\"ended_at\":\"1970-01-01T00:00:01Z\",\"started_at\":\"1970-01-01T00:00:00Z\"}]}";
    List<Instant[]> held = InFlight.held(List.of(twoAttempts, before), Instant.ofEpochSecond(1));
    assertEquals(2, held.size());
    assertEquals(Instant.ofEpochSecond(3), held.get(1)[0]);
    IOException e = assertThrows(IOException.class, () -> InFlight.held(List.of("{\"key\":\"a\"}"), Instant.MIN));
    assertEquals(2, InFlight.held(List.of("{\"key\":\"a\"}", twoAttempts), Instant.ofEpochSecond(1), false).size(),
        "leniently, a record an older h2beam wrote is passed over");
    assertTrue(e.getMessage().contains("says not when it held its slot"), e.getMessage());
  }
}
