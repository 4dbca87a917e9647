/**
 * The offline demo benchmark (spec §16): two ledger tasks run for real by a POSIX shell and awk script, and the
 * scripted deterministic proposer that fixes the script; it needs no model, network or Python, and nothing outside
 * this module may depend on it.
 */
package dev.h2beam.demo;
