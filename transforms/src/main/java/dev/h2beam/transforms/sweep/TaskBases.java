package dev.h2beam.transforms.sweep;

import dev.h2beam.adapters.model.RunView;
import java.io.Serializable;
import java.util.List;

/**
 * A task after its shared base rollouts: skipped (resumed from its summary), base-failed (no base rollout ran), or
 * ready for the modes with its k base rollouts.
 */
public record TaskBases(TaskRef ref, boolean skipped, boolean baseFailed, List<RunView> base)
    implements Serializable {
  public TaskBases {
    base = List.copyOf(base);
  }
}
