package dev.h2beam.adapters.files;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Answer-key paths that must never reach a model (spec §5.3), matched with POSIX fnmatch semantics: {@code *} also
 * matches {@code /}. A glob matches a relative path directly or after any leading folders ({@code * /glob}).
 *
 * <p>Unlike harness2 (quirk §21.9), only leading {@code ./} and {@code /} are stripped from a glob, so a glob such as
 * {@code .codex/x} keeps its dot and still matches.
 */
public final class LeakGlobs {
  private final List<Pattern> patterns = new ArrayList<>();
  private final List<String> globs;
  /** Answers given, by path: the evidence of a task's stages holds the same paths again and again. */
  private final java.util.concurrent.ConcurrentHashMap<String, Boolean> answered =
      new java.util.concurrent.ConcurrentHashMap<>();
  /** At most this many answers are kept; past it, paths are matched each time. */
  private static final int ANSWERS_KEPT = 20_000;
  private static final java.util.concurrent.ConcurrentHashMap<List<String>, LeakGlobs> SHARED =
      new java.util.concurrent.ConcurrentHashMap<>();

  /**
   * The globs' matcher, one per distinct list of globs in this process: every evidence folder a sweep builds is
   * checked against its benchmark's globs, and matching each of its paths with each glob's two patterns again was
   * half a percent of a sweep's CPU at L = 0 (BENCHMARKS.md, issue 11). The answers are kept (up to 20,000 paths).
   */
  public static LeakGlobs of(List<String> globs) {
    LeakGlobs known = SHARED.get(globs);
    if (known != null) return known;
    LeakGlobs made = new LeakGlobs(globs);
    // a few lists at most (a benchmark's own, or the default); more are matched without being kept
    if (SHARED.size() < 64) SHARED.putIfAbsent(made.globs, made);
    return made;
  }

  public LeakGlobs(List<String> globs) {
    this.globs = List.copyOf(globs);
    for (String g : globs) {
      String n = g.replace('\\', '/');
      while (n.startsWith("./") || n.startsWith("/")) n = n.startsWith("./") ? n.substring(2) : n.substring(1);
      if (n.isEmpty()) continue;
      patterns.add(Pattern.compile(translate(n)));
      patterns.add(Pattern.compile(translate("*/" + n)));
    }
  }

  /** Whether {@code other} (null for none) was made from the same globs, so matches exactly what this matches. */
  public boolean sameGlobs(LeakGlobs other) {
    return other != null && globs.equals(other.globs);
  }

  public boolean isEmpty() {
    return patterns.isEmpty();
  }

  public boolean matches(String rel) {
    Boolean known = answered.get(rel);
    if (known != null) return known;
    boolean hit = false;
    for (Pattern p : patterns) {
      if (p.matcher(rel).matches()) {
        hit = true;
        break;
      }
    }
    if (answered.size() < ANSWERS_KEPT) answered.put(rel, hit);
    return hit;
  }

  /** Fails when any file under {@code root} matches; a missing root or no globs is fine. */
  public void assertNone(Path root) {
    if (patterns.isEmpty()) return;
    assertNone(PathOrder.files(root));
  }

  /** The same over a listing already made ({@link PathOrder#files}): a folder checked twice is walked once. */
  public void assertNone(List<String> files) {
    if (patterns.isEmpty()) return;
    List<String> hits = new ArrayList<>();
    for (String rel : files) if (matches(rel)) hits.add(rel);
    if (!hits.isEmpty()) {
      hits.sort(null);
      throw new IllegalStateException("answer-key path(s) would enter model context: "
          + hits.subList(0, Math.min(8, hits.size())));
    }
  }

  /** fnmatch.translate: * and ** match anything, ? one character, [..] and [!..] classes. */
  static String translate(String glob) {
    StringBuilder re = new StringBuilder();
    for (int i = 0; i < glob.length(); i++) {
      char c = glob.charAt(i);
      if (c == '*') {
        re.append(".*");
      } else if (c == '?') {
        re.append('.');
      } else if (c == '[') {
        int j = i + 1;
        if (j < glob.length() && glob.charAt(j) == '!') j++;
        if (j < glob.length() && glob.charAt(j) == ']') j++;
        while (j < glob.length() && glob.charAt(j) != ']') j++;
        if (j >= glob.length()) {
          re.append("\\[");
        } else {
          String body = glob.substring(i + 1, j);
          StringBuilder cls = new StringBuilder("[");
          int from = 0;
          if (body.startsWith("!")) {
            cls.append('^');
            from = 1;
          }
          // every character literal except ranges: Java classes would read [ as a union and && as an intersection
          for (int b = from; b < body.length(); b++) {
            char ch = body.charAt(b);
            if (Character.isLetterOrDigit(ch) || ch == '-') cls.append(ch);
            else cls.append('\\').append(ch);
          }
          re.append(cls).append(']');
          i = j;
        }
      } else {
        re.append(Pattern.quote(String.valueOf(c)));
      }
    }
    return "(?s)" + re;
  }
}
