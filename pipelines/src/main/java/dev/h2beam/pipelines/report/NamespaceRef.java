package dev.h2beam.pipelines.report;

import dev.h2beam.adapters.model.Namespace;
import java.io.Serializable;
import java.math.BigInteger;
import java.nio.file.Path;
import java.util.Optional;

/**
 * A namespace directory the report reads, with the cell its name declares:
 * {@code <bench>-<substrate>-<mode><k>[-s<seed>][-<tag>]} (spec §2.16). The benchmark may itself contain '-'.
 *
 * @param dir the directory, absolute and normalised
 * @param seed null for the seedless namespace
 */
public record NamespaceRef(String dir, String bench, String substrate, String mode, int k, BigInteger seed, String tag)
    implements Serializable {

  public NamespaceRef {
    tag = tag == null ? "" : tag;
  }

  /** Parses a directory's name; empty when the name is not a namespace (e.g. {@code _audit}, {@code _report}). */
  public static Optional<NamespaceRef> parse(Path dir) {
    Path abs = dir.toAbsolutePath().normalize();
    if (abs.getFileName() == null) return Optional.empty();
    return Namespace.parse(abs.getFileName().toString()).map(ns -> new NamespaceRef(abs.toString(), ns.benchmark(),
        ns.substrate(), ns.mode(), ns.k(), ns.seed(), ns.tag()));
  }

  /** The directory's name. */
  public String name() {
    return Path.of(dir).getFileName().toString();
  }

  /**
   * The summary namespace of this cell ({@link Namespace#summary()}: the {@code agg} sibling), where judged.json,
   * config.json and every task's summary live whichever modes ran (spec §3.2).
   */
  public NamespaceRef summary() {
    Namespace summary = new Namespace(bench, substrate, mode, k, seed, tag).summary();
    if (summary.mode().equals(mode)) return this;
    return new NamespaceRef(Path.of(dir).resolveSibling(summary.toString()).toString(), bench, substrate,
        summary.mode(), k, seed, tag);
  }

  /** {@code <bench>-<substrate>}: namespaces of one report share it. */
  public String cell() {
    return bench + "-" + substrate;
  }

  /** The seed as the report prints it: the number, or {@code none}. */
  public String seedLabel() {
    return seed == null ? "none" : seed.toString();
  }

  public Path judgedPath() {
    return Path.of(dir).resolve("judged.json");
  }
}
