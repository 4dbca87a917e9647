/** The task stream: which tasks a sweep runs, grouped by domain, in the seeded or reference order of spec §8.1. */
package dev.h2beam.transforms.stream;
