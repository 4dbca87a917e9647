/** File-format helpers shared by every module: Python-compatible JSON, path order, fingerprints and completion markers. */
package dev.h2beam.adapters.files;
