/** The improver/selector/reflector session contract (one agent session in a working folder) and its lookup by kind. */
package dev.h2beam.adapters.proposer;
