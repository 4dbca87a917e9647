/** The benchmark contract (tasks, executions, deliverables) and its ServiceLoader lookup; must never expose a score. */
package dev.h2beam.adapters.bench;
