package dev.h2beam.adapters.model;

import java.math.BigInteger;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The run namespace of one (benchmark, substrate, mode, k, seed, tag) cell (spec §2.16, §3.2), written
 * {@code <benchmark>-<substrate>-<mode><k>[-s<seed>][-<tag>]}.
 *
 * <p>Each mode has its own namespace for its work directories; the summary namespace ({@link #summary()}) is always
 * the {@code agg} one, whichever modes ran. {@code seed} (an integer of any size, as harness2's) is null when the
 * stream is not shuffled; {@code tag} is {@code ""} when unset (the CLIs never set one).
 */
public record Namespace(String benchmark, String substrate, String mode, int k, BigInteger seed, String tag) {
  /**
   * Every mode token in the fixed order files, reports and chains use: {@code agg} (parallel), {@code seq}
   * (sequential) and {@code gat} (gated, Reef's way: one proposal at a time kept or reverted on paired episodes).
   */
  public static final List<String> MODES = List.of("agg", "seq", "gat");
  private static final Pattern TAG = Pattern.compile("[A-Za-z0-9_.][A-Za-z0-9_.\\-]*");
  // A tag like "s7" or "s7-x" would read back as a seed segment.
  private static final Pattern SEED_LIKE = Pattern.compile("s[0-9]+(-.*)?");
  // the benchmark may itself contain '-'; the shortest benchmark that leaves a valid rest wins
  private static final Pattern NAME = Pattern.compile(
      "(?<bench>.+?)-(?<sub>[A-Za-z0-9]+)-(?<mode>agg|seq|gat)(?<k>[1-9][0-9]*)(?:-s(?<seed>-?[0-9]+))?(?:-(?<tag>.+))?");

  public Namespace {
    Objects.requireNonNull(benchmark, "benchmark");
    if (!MODES.contains(mode)) {
      throw new IllegalArgumentException(
          "namespace mode must be agg, seq or gat, got '" + mode + "'; convert mode names with Namespace.modeToken");
    }
    if (substrate == null || substrate.isEmpty()) {
      throw new IllegalArgumentException("namespace substrate must be non-empty; use oc or cx");
    }
    if (k < 1) throw new IllegalArgumentException("namespace k must be >= 1, got " + k);
    tag = tag == null ? "" : tag;
    if (!tag.isEmpty() && !TAG.matcher(tag).matches()) {
      throw new IllegalArgumentException(
          "namespace tag '" + tag + "' must match [A-Za-z0-9_.][A-Za-z0-9_.-]*; use letters, digits, '_', '.' and"
              + " '-', not starting with '-'");
    }
    if (SEED_LIKE.matcher(tag).matches()) {
      throw new IllegalArgumentException(
          "namespace tag '" + tag + "' looks like a seed segment (s<digits>); set the seed field instead, or choose"
              + " a tag that does not start with s<digits> followed by '-' or the end");
    }
  }

  /**
   * The namespace a folder name spells, or empty when it is not one (e.g. {@code _audit}, {@code _report}): the name
   * must read back exactly as {@link #toString()} writes it.
   */
  public static Optional<Namespace> parse(String name) {
    Matcher m = NAME.matcher(name);
    if (!m.matches()) return Optional.empty();
    try {
      BigInteger seed = m.group("seed") == null ? null : new BigInteger(m.group("seed"));
      Namespace ns = new Namespace(m.group("bench"), m.group("sub"), m.group("mode"), Integer.parseInt(m.group("k")),
          seed, m.group("tag"));
      return ns.toString().equals(name) ? Optional.of(ns) : Optional.empty();
    } catch (IllegalArgumentException e) {
      return Optional.empty();
    }
  }

  /** An untagged, unseeded namespace. */
  public static Namespace of(String benchmark, String substrate, String mode, int k) {
    return new Namespace(benchmark, substrate, mode, k, null, "");
  }

  /**
   * The mode token for a name: {@code parallel|agg → agg}, {@code sequential|seq → seq}, {@code gated|gat → gat};
   * trimmed, any case.
   */
  public static String modeToken(String name) {
    String key = name == null ? "" : name.strip().toLowerCase(Locale.ROOT);
    return switch (key) {
      case "parallel", "agg" -> "agg";
      case "sequential", "seq" -> "seq";
      case "gated", "gat" -> "gat";
      default -> throw new IllegalArgumentException("unknown mode '" + name + "'; use parallel, sequential or gated");
    };
  }

  /** The human name of a mode token: {@code agg → parallel}, {@code seq → sequential}, {@code gat → gated}. */
  public static String modeName(String token) {
    if ("agg".equals(token)) return "parallel";
    if ("seq".equals(token)) return "sequential";
    if ("gat".equals(token)) return "gated";
    throw new IllegalArgumentException("unknown mode token '" + token + "'; use agg, seq or gat");
  }

  /** A task id as one directory name: every {@code /} becomes {@code __}. */
  public static String slug(String task) {
    return task.replace("/", "__");
  }

  /** The same cell in another mode; {@code mode} may be a token or a name ({@link #modeToken}). */
  public Namespace withMode(String mode) {
    return new Namespace(benchmark, substrate, modeToken(mode), k, seed, tag);
  }

  /** The summary namespace: this cell in mode {@code agg}, where summaries, config and judged rows live. */
  public Namespace summary() {
    return withMode("agg");
  }

  /** The run id of one rollout: {@code <ns>/<task>/<label>}, with the task id unmodified (it may contain '/'). */
  public String runId(String task, String label) {
    return this + "/" + task + "/" + label;
  }

  /** The per-task work directory {@code <root>/<ns>/<slug(task)>}. */
  public Path taskDir(Path root, String task) {
    return root.resolve(toString()).resolve(slug(task));
  }

  /**
   * Glob patterns matching this cell under any seed or tag: {@code <benchmark>-<substrate>-<mode><k>} and
   * {@code <that>-*}.
   */
  public List<String> globs() {
    String base = benchmark + "-" + substrate + "-" + mode + k;
    return List.of(base, base + "-*");
  }

  /** The string form {@code <benchmark>-<substrate>-<mode><k>[-s<seed>][-<tag>]}. */
  @Override
  public String toString() {
    StringBuilder ns = new StringBuilder(benchmark).append('-').append(substrate).append('-').append(mode).append(k);
    if (seed != null) ns.append("-s").append(seed);
    if (!tag.isEmpty()) ns.append('-').append(tag);
    return ns.toString();
  }
}
