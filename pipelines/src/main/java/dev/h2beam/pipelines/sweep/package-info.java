/** The sweep pipeline: options, validation before anything runs, the task stream, and the Beam graph. */
package dev.h2beam.pipelines.sweep;
