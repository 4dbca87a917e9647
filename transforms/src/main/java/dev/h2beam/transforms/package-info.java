/** The method of Harness²; nothing here may import anything that scores (no Grader, no judged rows). */
package dev.h2beam.transforms;
