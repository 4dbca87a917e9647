/**
 * The harness tree: its path grammar, reading and writing, autotrigger repair, validation, diff, diversity and
 * inventory (spec §4), as plain Java with no Beam import.
 */
package dev.h2beam.transforms.tree;
