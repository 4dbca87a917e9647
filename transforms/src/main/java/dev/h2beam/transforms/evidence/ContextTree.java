package dev.h2beam.transforms.evidence;

import java.nio.file.Path;
import java.util.List;

/**
 * What landed in one evidence folder (spec §2.15); its layout is listed in the mission. {@code held} is the folder as
 * built, listed and read once (for the tripwire), so the session's cache key and copy need not read it again.
 */
public record ContextTree(
    Path root, String taskId, List<String> rollouts, List<String> deliverables, int harnessFiles, boolean library,
    List<String> pool, List<String> failed, String deliverablesMode, int sourceFiles, int decisions, HeldTree held) {
  public ContextTree {
    rollouts = List.copyOf(rollouts);
    deliverables = List.copyOf(deliverables);
    pool = List.copyOf(pool);
    failed = List.copyOf(failed);
  }
}
