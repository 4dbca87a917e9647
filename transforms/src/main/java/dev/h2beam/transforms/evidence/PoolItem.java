package dev.h2beam.transforms.evidence;

import dev.h2beam.adapters.model.RunView;
import java.nio.file.Path;

/** One candidate shown in an evidence pool: its label, its harness folder and its rollout (null if none). */
public record PoolItem(String label, Path harnessDir, RunView rollout) {}
