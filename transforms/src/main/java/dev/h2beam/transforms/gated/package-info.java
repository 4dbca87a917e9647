/**
 * The gated mode's plug-in surface (Reef's way of improving, seed 003): a {@link dev.h2beam.transforms.gated.GatedMethod}
 * proposes one mutation at a time and scores episodes with what it is allowed to see, and a
 * {@link dev.h2beam.transforms.gated.SelectionPolicy} keeps or reverts each candidate on the paired scores. Methods
 * and policies are found by name through {@code META-INF/services}, like benchmarks and channels.
 */
package dev.h2beam.transforms.gated;
