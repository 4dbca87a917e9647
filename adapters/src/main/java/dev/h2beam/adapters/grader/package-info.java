/** The grader contract: judge side only; nothing in the method (transforms) may import this package. */
package dev.h2beam.adapters.grader;
