/**
 * Beam composites and DoFns of the sweep; they only unpack elements, call the sweep steps, emit and count. Also the
 * hold of a finished step's runner thread on the DirectRunner ({@link dev.h2beam.transforms.beam.FinishedChains}),
 * which the report's pipeline shares.
 */
package dev.h2beam.transforms.beam;
