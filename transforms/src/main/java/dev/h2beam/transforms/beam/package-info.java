/** Beam composites and DoFns of the sweep; they only unpack elements, call the sweep steps, emit and count. */
package dev.h2beam.transforms.beam;
