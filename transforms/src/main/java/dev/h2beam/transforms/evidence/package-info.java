/** Evidence folders, the only way evidence reaches a model: built complete, leak-filtered and checked for grader verdicts. */
package dev.h2beam.transforms.evidence;
