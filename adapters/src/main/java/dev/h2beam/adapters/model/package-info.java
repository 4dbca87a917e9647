/** Value records exchanged across module boundaries; immutable, validated, never carrying a score into the method. */
package dev.h2beam.adapters.model;
