package dev.h2beam.transforms.evidence;

import dev.h2beam.adapters.files.PathOrder;
import dev.h2beam.adapters.model.HarnessRejected;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The grader-verdict tripwire (spec §5.4): a marker of a grader's output found in an evidence folder, a harness or a
 * lesson means a leak, and the build stops. The leak must be traced, never worked around.
 */
public final class VerdictTripwire {
  private VerdictTripwire() {}

  public static final List<String> MARKERS = List.of(
      "deterministic_eval_summary", "deterministic_eval_result", "judge_scope_and_deterministic_status",
      "Judge findings on the rendered result", "\"passed_count\"", "\"pass_rate\"", "\"test_pass_rate\"");

  private static final Set<String> TEXT_SUFFIXES = Set.of(".md", ".txt", ".json", ".csv", ".tsv", ".yaml", ".yml",
      ".html", ".htm", ".log", ".py", ".js", ".sh", ".xml", ".ini", ".toml", ".patch", ".diff", "");

  /**
   * Scans every file under {@code root}: names always, contents of text-like files. Contents are read in windows
   * that overlap by more than the longest marker, so a file of any size is scanned without holding it in memory.
   */
  public static void assertNone(Path root) {
    assertNone(root, PathOrder.files(root));
  }

  /** The same over a listing of {@code root} already made ({@link PathOrder#files}). */
  public static void assertNone(Path root, List<String> files) {
    for (String rel : files) checkFile(root, rel);
  }

  /**
   * The same over a tree already read: held files are scanned from memory, the rest from disk. A library's files in
   * the tree ({@link HeldTree#shown}) are passed over: its {@link ShownLibrary} scanned them once, where it read them,
   * and the evidence build asks it for the outcome.
   */
  public static void assertNone(HeldTree tree) {
    for (int i = 0; i < tree.files().size(); i++) if (!tree.shown(i)) assertNone(tree, i);
  }

  /** The same over the {@code i}-th file of {@code tree} alone. */
  static void assertNone(HeldTree tree, int i) {
    String rel = tree.files().get(i);
    byte[] bytes = tree.bytes(i);
    if (bytes == null) {
      checkFile(tree.root(), rel);
    } else {
      // the bytes are decoded only where a marker's first bytes are found (every stage's evidence is scanned, and
      // nearly none holds one): the markers are ASCII, so they are in the text exactly where their bytes are
      boolean text = isText(rel) && mayHoldMarker(bytes);
      check(tree.root(), rel, text ? new String(bytes, StandardCharsets.UTF_8) : null);
    }
  }

  /** One file of {@code root}: its name, and its contents when it is text. */
  private static void checkFile(Path root, String rel) {
    check(root, rel, null);
    if (!isText(rel)) return;
    Path file = root.resolve(rel);
    try {
      // most evidence files are small: one read, and no window buffer allocated per file; decoded and searched only
      // where a marker's first bytes are, as held files are
      if (Files.size(file) <= WINDOW) {
        byte[] bytes = Files.readAllBytes(file);
        if (mayHoldMarker(bytes)) check(root, rel, new String(bytes, StandardCharsets.UTF_8));
        return;
      }
      try (Reader in = new InputStreamReader(Files.newInputStream(file), StandardCharsets.UTF_8)) {
        char[] buf = new char[WINDOW];
        String carry = "";
        int n;
        while ((n = in.read(buf)) > 0) {
          String window = carry + new String(buf, 0, n);
          check(root, rel, window);
          carry = window.substring(Math.max(0, window.length() - OVERLAP));
        }
      }
    } catch (IOException e) {
      // an unreadable file is checked by name only, as before
    }
  }

  private static final int WINDOW = 1 << 20;
  /** Longer than any marker plus the quoted context, so a marker cut by a window edge is found in the next one. */
  private static final int OVERLAP = 256;

  /** The same scan over an in-memory tree; throws {@link HarnessRejected}. */
  public static void assertNone(Map<String, String> tree) {
    for (Map.Entry<String, String> e : tree.entrySet()) {
      check(null, e.getKey(), isText(e.getKey()) ? e.getValue() : null);
    }
  }

  private static boolean isText(String rel) {
    String name = rel.substring(rel.lastIndexOf('/') + 1);
    int dot = name.lastIndexOf('.');
    String suffix = dot <= 0 ? "" : name.substring(dot).toLowerCase(Locale.ROOT);
    return TEXT_SUFFIXES.contains(suffix);
  }

  /**
   * Whether two bytes (the first as the high byte of an unsigned index) are the first two of some marker. Two, not one:
   * a marker's first byte alone ({@code d}, {@code "}) is in nearly every text many times over.
   */
  private static final boolean[] STARTS = new boolean[1 << 16];

  static {
    for (String m : MARKERS) {
      if (m.chars().anyMatch(c -> c > 0x7e)) throw new IllegalStateException("a verdict marker must be ASCII: " + m);
      if (m.length() < 2) throw new IllegalStateException("a verdict marker must be two characters or more: " + m);
      STARTS[m.charAt(0) << 8 | m.charAt(1)] = true;
    }
  }

  /** Whether {@code bytes} hold some marker's bytes: one pass, comparing only where a marker's first bytes are. */
  static boolean mayHoldMarker(byte[] bytes) {
    int pair = bytes.length == 0 ? 0 : bytes[0] & 0xff;
    for (int i = 1; i < bytes.length; i++) {
      pair = (pair << 8 | bytes[i] & 0xff) & 0xffff;
      if (!STARTS[pair]) continue;
      for (String m : MARKERS) if (startsWith(bytes, i - 1, m)) return true;
    }
    return false;
  }

  private static boolean startsWith(byte[] bytes, int at, String ascii) {
    if (bytes.length - at < ascii.length()) return false;
    for (int k = 0; k < ascii.length(); k++) if (bytes[at + k] != ascii.charAt(k)) return false;
    return true;
  }

  /** The place named in a refusal: {@code rel} below {@code root}, or {@code rel} alone without a root. */
  private static String where(Object root, String rel) {
    return root == null ? rel : root + "/" + rel;
  }

  /** Refuses a marker in {@code rel} or in {@code text} (when given); the place is named only when refused. */
  private static void check(Object root, String rel, String text) {
    for (String m : MARKERS) {
      if (rel.contains(m)) {
        throw new HarnessRejected("grader verdict marker " + m + " in the path " + where(root, rel)
            + ": a grader's output is leaking toward a model; trace and remove the leak, never widen around it");
      }
    }
    if (text == null) return;
    for (String m : MARKERS) {
      int at = text.indexOf(m);
      if (at >= 0) {
        String quote = text.substring(Math.max(0, at - 60), Math.min(text.length(), at + m.length() + 120));
        throw new HarnessRejected("grader verdict marker " + m + " inside " + where(root, rel) + " («" + quote
            + "»): a grader's output is leaking toward a model; trace and remove the leak, never widen around it");
      }
    }
  }
}
