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
    for (Pattern p : patterns) if (p.matcher(rel).matches()) return true;
    return false;
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
