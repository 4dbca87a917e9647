/** Finding plug-ins by name through {@code META-INF/services}. */
package dev.h2beam.adapters.plugin;
