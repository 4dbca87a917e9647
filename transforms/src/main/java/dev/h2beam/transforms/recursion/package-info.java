/** The two recursion drivers (parallel width, sequential depth), their stages and rollouts, with deterministic records. */
package dev.h2beam.transforms.recursion;
