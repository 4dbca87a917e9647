package dev.h2beam.pipelines.folder;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.h2beam.adapters.files.Json;
import dev.h2beam.adapters.llm.ScriptedModelServer;
import dev.h2beam.pipelines.sweep.Sweep;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * While a sweep runs, each worker's progress board counts the model calls of each endpoint sending and waiting for
 * their turn: with an endpoint that takes one call at a time and two chains calling it, the boards show calls waiting
 * while one is sent, never two sent, and nothing in flight once the sweep is over; and then every call the model got,
 * none failed, and the time they waited for their turn.
 */
class EndpointProgressTest {
  @Test
  void theBoardsShowAnEndpointsCallsWaitingWhileItsLimitIsReached(@TempDir Path tmp) throws Exception {
    try (ScriptedModelServer server = ScriptedModelServer.start(new SignedSumsModel())) {
      server.latency(Duration.ofMillis(400));
      Path config = FolderSweepTest.config(tmp, server.baseUrl());
      Files.writeString(config, Files.readString(config).replace("max_concurrency: 4", "max_concurrency: 1"));
      Path runs = tmp.resolve("runs");
      AtomicInteger maxWaiting = new AtomicInteger();
      AtomicInteger maxSending = new AtomicInteger();
      AtomicInteger looks = new AtomicInteger();
      AtomicBoolean over = new AtomicBoolean();
      Thread watcher = new Thread(() -> {
        while (!over.get()) {
          for (JsonNode local : locals(runs)) {
            looks.incrementAndGet();
            maxWaiting.accumulateAndGet(local.path("waiting").asInt(), Math::max);
            maxSending.accumulateAndGet(local.path("sending").asInt(), Math::max);
          }
          try {
            Thread.sleep(20);
          } catch (InterruptedException e) {
            return;
          }
        }
      });
      watcher.start();
      Map<String, Object> record;
      try {
        record = FolderSweepTest.sweepAt(runs, config, 1, "parallel,sequential", "--onlyDomains=ledgers",
            "--maxTasks=1", "--sessionLimit=4", "--rolloutLimit=4");
      } finally {
        over.set(true);
        watcher.join();
      }
      assertEquals(1, Sweep.doneFailed(record)[0], record.toString());
      assertTrue(looks.get() > 0, "no board named the endpoint");
      assertTrue(maxWaiting.get() >= 1, "calls waited for the one slot: " + maxWaiting.get());
      assertEquals(1, maxSending.get(), "never more than the endpoint's one call sent at once");
      long calls = 0;
      long waitedMs = 0;
      for (JsonNode local : locals(runs)) {
        assertEquals(0, local.path("waiting").asInt() + local.path("sending").asInt(), "the last boards: " + local);
        assertEquals(0, local.path("failed").asInt(), "every call answered: " + local);
        calls += local.path("calls").asLong();
        waitedMs += local.path("waited_ms").asLong();
      }
      // the last boards count every call the model got, and the time the calls spent waiting for the one slot
      assertEquals(server.requests().size(), calls, "calls the boards counted");
      assertTrue(waitedMs >= 400, "the calls waited at least one reply's latency in all: " + waitedMs + " ms");
    }
  }

  /** The endpoint {@code local} as each board of the run names it now (a board being replaced is read next time). */
  private static List<JsonNode> locals(Path runs) {
    Path audit = runs.resolve("_audit");
    if (!Files.isDirectory(audit)) return List.of();
    try (Stream<Path> s = Files.walk(audit)) {
      return s.filter(p -> p.getParent().getFileName().toString().equals("progress") && p.toString().endsWith(".json"))
          .flatMap(p -> {
            try {
              JsonNode local = Json.readTree(p).path("endpoints").path("local");
              return local.isMissingNode() ? Stream.empty() : Stream.of(local);
            } catch (Exception e) {
              return Stream.empty();
            }
          }).toList();
    } catch (Exception e) {
      return List.of(); // a folder replaced while walked: looked at again next time
    }
  }
}
