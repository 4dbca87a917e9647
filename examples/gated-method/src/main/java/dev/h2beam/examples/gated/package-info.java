/**
 * A worked example of a gated-mode method plug-in ({@code --method=sign-rule}), built as its own jar and found by
 * h2beam through {@code META-INF/services/dev.h2beam.transforms.gated.GatedMethod}.
 */
package dev.h2beam.examples.gated;
