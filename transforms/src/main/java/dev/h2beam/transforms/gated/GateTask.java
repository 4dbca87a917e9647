package dev.h2beam.transforms.gated;

import java.nio.file.Path;
import java.util.Optional;

/**
 * The task an episode ran, as a method may see it: its id, prompt, input files and method-visible checks (a folder
 * benchmark task's {@code checks/}). The grading folder is never here.
 */
public record GateTask(String id, String prompt, Optional<Path> source, Optional<Path> checks) {}
