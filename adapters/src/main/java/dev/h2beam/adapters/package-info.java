/** Contracts with the outside world; this module never depends on Beam or on the method. */
package dev.h2beam.adapters;
