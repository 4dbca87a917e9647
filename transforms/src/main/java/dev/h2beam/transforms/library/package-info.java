/** The per-(mode, domain) experience library: adopted harnesses and their lessons, read by later tasks of the domain. */
package dev.h2beam.transforms.library;
