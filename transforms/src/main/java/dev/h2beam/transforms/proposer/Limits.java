package dev.h2beam.transforms.proposer;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;

/**
 * Process-wide concurrency limits per channel (improver sessions, executor rollouts). Every DoFn instance in one JVM
 * shares them, so parallel chains together never exceed the configured width.
 */
public final class Limits {
  private Limits() {}

  private static final ConcurrentHashMap<String, Semaphore> SEMAPHORES = new ConcurrentHashMap<>();

  /** The shared fair semaphore for {@code channel} at width {@code permits}. */
  public static Semaphore of(String channel, int permits) {
    if (permits < 1) throw new IllegalArgumentException(channel + " limit must be >= 1, got " + permits);
    return SEMAPHORES.computeIfAbsent(channel + ":" + permits, key -> new Semaphore(permits, true));
  }
}
