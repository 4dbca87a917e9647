/** Reflection: per-edit verdicts and at most one transferable lesson, screened before it may enter the library. */
package dev.h2beam.transforms.reflection;
