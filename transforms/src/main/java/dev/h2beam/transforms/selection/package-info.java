/** Blind selection of one final per mode: anonymised, shuffled deliverables with no labels, harnesses or scores. */
package dev.h2beam.transforms.selection;
