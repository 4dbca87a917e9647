/** The command line: subcommands found by name, Beam-style options, one exit-code convention. */
package dev.h2beam.pipelines;
