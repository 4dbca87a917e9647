/** Improver, selector and reflector calls: attempts, the process-wide session limit, the reply cache and its audit trail. */
package dev.h2beam.transforms.proposer;
