package dev.h2beam.transforms.sweep;

import java.io.Serializable;

/**
 * One task of the stream: its domain, its 1-based position among that domain's tasks, the domain's size, and its
 * index in the whole stream (which orders every chain).
 */
public record TaskRef(String domain, String task, int position, int domainSize, int index) implements Serializable {}
