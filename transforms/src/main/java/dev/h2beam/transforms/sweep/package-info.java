/** The sweep's steps as plain Java (base rollouts, one mode of one task, the task's finish, the sweep record), called by the Beam DoFns. */
package dev.h2beam.transforms.sweep;
