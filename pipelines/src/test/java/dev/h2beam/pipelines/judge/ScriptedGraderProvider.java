package dev.h2beam.pipelines.judge;

import dev.h2beam.adapters.files.Json;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Test grader {@code scripted}: each run dir's {@code grade.txt} says what to do: a JSON score to return, or
 * {@code throw}, {@code hang}, {@code empty}, or {@code cycle} followed by one of those per line, answered in turn
 * call after call (a judge that disagrees with itself); {@code sleep <ms>} on a first line makes the call take that
 * long. Counts its calls so tests can prove it was never called, and the calls in flight at once.
 */
public final class ScriptedGraderProvider implements GraderProvider {
  static final AtomicInteger CALLS = new AtomicInteger();
  /** Calls running now, and the most that ran at once ({@code sleep}). */
  static final AtomicInteger IN_FLIGHT = new AtomicInteger();
  static final AtomicInteger MOST_IN_FLIGHT = new AtomicInteger();
  /** Calls per run dir, for {@code cycle}. */
  static final java.util.concurrent.ConcurrentHashMap<String, AtomicInteger> TURNS =
      new java.util.concurrent.ConcurrentHashMap<>();

  @Override public String name() {
    return "scripted";
  }

  /** Graders opened; an opening takes {@link #OPEN_MILLIS} (a model client's set-up), so racing openings overlap. */
  static final AtomicInteger OPENS = new AtomicInteger();
  /** Graders closed. */
  static final AtomicInteger CLOSES = new AtomicInteger();
  /** How many of the next openings fail, as a model client that cannot be made. */
  static final AtomicInteger FAILING_OPENS = new AtomicInteger();
  static volatile long OPEN_MILLIS;

  @Override public Grader open(Path namespaceDir, Map<String, String> settings) throws IOException {
    OPENS.incrementAndGet();
    if (FAILING_OPENS.getAndUpdate(n -> Math.max(0, n - 1)) > 0) throw new IOException("no model client today");
    if (OPEN_MILLIS > 0) {
      try {
        Thread.sleep(OPEN_MILLIS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    return new Grader() {
      @Override public String identity() {
        return settings.getOrDefault("command", "scripted:v1");
      }

      @Override public void close() {
        CLOSES.incrementAndGet();
      }

      @Override public Optional<Map<String, Object>> score(Path runDir, String task) throws Exception {
        CALLS.incrementAndGet();
        String what = Files.readString(runDir.resolve("grade.txt")).strip();
        if (what.startsWith("cycle\n")) {
          String[] turns = what.substring("cycle\n".length()).split("\n");
          int call = TURNS.computeIfAbsent(runDir.toAbsolutePath().toString(), d -> new AtomicInteger())
              .getAndIncrement();
          what = turns[call % turns.length].strip();
        }
        if (what.startsWith("sleep ")) {
          // "sleep <ms>" on the first line, then the answer: a call that takes a while, counted while it runs
          String[] lines = what.split("\n", 2);
          MOST_IN_FLIGHT.accumulateAndGet(IN_FLIGHT.incrementAndGet(), Math::max);
          try {
            Thread.sleep(Long.parseLong(lines[0].substring("sleep ".length()).strip()));
          } finally {
            IN_FLIGHT.decrementAndGet();
          }
          what = lines[1].strip();
        }
        switch (what) {
          case "throw":
            throw new IllegalStateException("grader exploded on " + task);
          case "hang":
            Thread.sleep(60_000);
            return Optional.empty();
          case "empty":
            return Optional.empty();
          default:
            return Optional.of(Json.readMap(what));
        }
      }
    };
  }
}
