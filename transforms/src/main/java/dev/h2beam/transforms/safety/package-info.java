/**
 * Safety rules for text that did not come from the method: fencing it into prompts, and screening it for instruction
 * overrides and credentials.
 */
package dev.h2beam.transforms.safety;
