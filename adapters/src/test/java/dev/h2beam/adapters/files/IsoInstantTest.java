package dev.h2beam.adapters.files;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Instant;
import java.util.Random;
import org.junit.jupiter.api.Test;

class IsoInstantTest {
  /** The JDK's text for instants across the range written here, its edges and the fractions of each width. */
  @Test
  void anInstantIsWrittenAsTheJdkWritesIt() {
    Random random = new Random(23);
    int[] nanos = {0, 1, 999_999_999, 123_000_000, 120_000_000, 100_000_000, 123_456_000, 123_450_000, 123_456_789,
        1_000, 1_000_000, 10};
    long[] seconds = {0, 1, 59, 86_399, 86_400, 951_782_400 /* 2000-02-29 */, 1_764_820_000L, 4_107_542_399L,
        253_402_300_799L /* 9999-12-31T23:59:59 */, 253_402_300_800L, -1, -86_401, 300_000_000_000L};
    for (long s : seconds) {
      for (int n : nanos) {
        assertEquals(Instant.ofEpochSecond(s, n).toString(), IsoInstant.of(Instant.ofEpochSecond(s, n)));
      }
    }
    for (int i = 0; i < 100_000; i++) {
      long s = Math.floorMod(random.nextLong(), 260_000_000_000L) - 1_000_000_000L;
      int n = switch (random.nextInt(4)) {
        case 0 -> 0;
        case 1 -> random.nextInt(1000) * 1_000_000;
        case 2 -> random.nextInt(1_000_000) * 1000;
        default -> random.nextInt(1_000_000_000);
      };
      Instant t = Instant.ofEpochSecond(s, n);
      assertEquals(t.toString(), IsoInstant.of(t));
    }
    Instant now = Instant.now();
    assertEquals(now.toString(), IsoInstant.of(now));
  }
}
