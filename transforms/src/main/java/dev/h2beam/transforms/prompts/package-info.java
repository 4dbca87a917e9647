/** The text of every stage prompt (proposal, composition, selection, reflection) and the parsers for the replies. */
package dev.h2beam.transforms.prompts;
