package dev.h2beam.transforms.sweep;

import java.io.Serializable;

/** One mode of one task done (or replayed, or not run): how many library entries it saw before it started. */
public record ModeOutcome(TaskRef ref, String mode, int libraryEntriesBefore, boolean skipped)
    implements Serializable {}
