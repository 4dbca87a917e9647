/** Resume: a finished task is skipped only when its adopted outputs and harnesses are still exactly what was recorded. */
package dev.h2beam.transforms.resume;
