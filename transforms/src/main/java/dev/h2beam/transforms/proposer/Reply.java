package dev.h2beam.transforms.proposer;

import java.nio.file.Path;

/**
 * A proposer call's answer (spec §2.14).
 *
 * @param workspace the harvested folder (the edited harness) or null when nothing was harvested
 */
public record Reply(
    String label, String text, boolean ok, double costUsd, double wallS, int attempts, boolean cached,
    String channel, String error, Path audit, Path workspace) {}
