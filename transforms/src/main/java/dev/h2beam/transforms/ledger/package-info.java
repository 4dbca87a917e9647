/** Per-mode, per-task budget accounting; refuses to finish unless R = 4k rollouts and P = 3k sessions. */
package dev.h2beam.transforms.ledger;
