package dev.h2beam.transforms.evidence;

import java.nio.file.Path;
import java.util.List;

/** What landed in one evidence folder (spec §2.15); its layout is listed in the mission. */
public record ContextTree(
    Path root, String taskId, List<String> rollouts, List<String> deliverables, int harnessFiles, boolean library,
    List<String> pool, List<String> failed, String deliverablesMode, int sourceFiles, int decisions) {
  public ContextTree {
    rollouts = List.copyOf(rollouts);
    deliverables = List.copyOf(deliverables);
    pool = List.copyOf(pool);
    failed = List.copyOf(failed);
  }
}
