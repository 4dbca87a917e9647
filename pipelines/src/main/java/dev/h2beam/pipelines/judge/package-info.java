/**
 * The judge: scores the output each selection chose, after the sweep, where a failure is an absence with a reason and
 * never a zero. The grader contract lives here, in a module the method (transforms) cannot depend on.
 */
package dev.h2beam.pipelines.judge;
