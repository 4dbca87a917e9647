/** summary.json, the per-task checkpoint: merged under a lock, written by atomic rename, in a canonical order. */
package dev.h2beam.transforms.summary;
