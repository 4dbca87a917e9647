package dev.h2beam.transforms.tree;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The few Python string semantics the tree rules are defined in: lengths and slices in code points, {@code str.strip}
 * whitespace, universal-newline {@code splitlines}, {@code repr} and plain (code point) string order. Trees written
 * by either tool must measure and compare the same.
 */
public final class Py {
  private Py() {}

  /** Python's plain {@code sorted()} order for strings: by code point, not by UTF-16 unit. */
  static final Comparator<String> CODE_POINT_ORDER = dev.h2beam.adapters.files.PathOrder.STRINGS;

  static int compare(String a, String b) {
    return dev.h2beam.adapters.files.PathOrder.compareCodePoints(a, b);
  }

  /** {@code len(s)}: the number of code points. */
  static int len(String s) {
    return s.codePointCount(0, s.length());
  }

  /** {@code s[:n]} in code points. */
  static String head(String s, int n) {
    if (len(s) <= n) return s;
    return s.substring(0, s.offsetByCodePoints(0, n));
  }

  /** {@code str.isspace()} for one code point. */
  static boolean isSpace(int cp) {
    return Character.isWhitespace(cp) || Character.isSpaceChar(cp) || cp == 0x85;
  }

  static String strip(String s) {
    return rstrip(lstrip(s));
  }

  static String lstrip(String s) {
    int i = 0;
    while (i < s.length()) {
      int cp = s.codePointAt(i);
      if (!isSpace(cp)) break;
      i += Character.charCount(cp);
    }
    return s.substring(i);
  }

  static String rstrip(String s) {
    int end = s.length();
    while (end > 0) {
      int cp = s.codePointBefore(end);
      if (!isSpace(cp)) break;
      end -= Character.charCount(cp);
    }
    return s.substring(0, end);
  }

  /** {@code not s.strip()}. */
  static boolean isBlank(String s) {
    return strip(s).isEmpty();
  }

  private static boolean isLineBreak(char c) {
    return c == '\n' || c == '\r' || c == 0x0b || c == 0x0c || c == 0x1c || c == 0x1d || c == 0x1e || c == 0x85
        || c == 0x2028 || c == 0x2029;
  }

  /** {@code s.splitlines(keepends)}: every universal line boundary, {@code \r\n} counted as one. */
  static List<String> splitlines(String s, boolean keepends) {
    List<String> out = new ArrayList<>();
    int start = 0;
    int i = 0;
    while (i < s.length()) {
      char c = s.charAt(i);
      if (!isLineBreak(c)) {
        i++;
        continue;
      }
      int eol = i;
      i += (c == '\r' && i + 1 < s.length() && s.charAt(i + 1) == '\n') ? 2 : 1;
      out.add(s.substring(start, keepends ? i : eol));
      start = i;
    }
    if (start < s.length()) out.add(s.substring(start));
    return out;
  }

  /** {@code repr(s)} for a string: single quotes unless only double quotes avoid escaping. */
  static String repr(String s) {
    char q = s.indexOf('\'') >= 0 && s.indexOf('"') < 0 ? '"' : '\'';
    StringBuilder b = new StringBuilder().append(q);
    s.codePoints().forEach(cp -> {
      if (cp == q || cp == '\\') {
        b.append('\\').appendCodePoint(cp);
      } else if (cp == '\n') {
        b.append("\\n");
      } else if (cp == '\r') {
        b.append("\\r");
      } else if (cp == '\t') {
        b.append("\\t");
      } else if (isPrintable(cp)) {
        b.appendCodePoint(cp);
      } else if (cp < 0x100) {
        b.append(String.format(Locale.ROOT, "\\x%02x", cp));
      } else if (cp < 0x10000) {
        b.append(String.format(Locale.ROOT, "\\u%04x", cp));
      } else {
        b.append(String.format(Locale.ROOT, "\\U%08x", cp));
      }
    });
    return b.append(q).toString();
  }

  private static boolean isPrintable(int cp) {
    if (cp == ' ') return true;
    int t = Character.getType(cp);
    return !(t == Character.CONTROL || t == Character.FORMAT || t == Character.SURROGATE || t == Character.PRIVATE_USE
        || t == Character.UNASSIGNED || t == Character.LINE_SEPARATOR || t == Character.PARAGRAPH_SEPARATOR
        || t == Character.SPACE_SEPARATOR);
  }

  /**
   * Python's {@code format(n, ",")}: the digits in groups of three, joined by commas ({@code 1,234,567}), as {@code
   * String.format("%,d")} writes them in the root locale, without its formatter (half a percent of a sweep's CPU at
   * L = 0, one for every deliverable file listed in every stage's evidence).
   */
  public static String commas(long n) {
    String digits = Long.toString(n);
    int sign = n < 0 ? 1 : 0;
    int len = digits.length() - sign;
    if (len <= 3) return digits;
    StringBuilder sb = new StringBuilder(digits.length() + (len - 1) / 3);
    sb.append(digits, 0, sign);
    int first = len % 3 == 0 ? 3 : len % 3;
    sb.append(digits, sign, sign + first);
    for (int i = sign + first; i < digits.length(); i += 3) sb.append(',').append(digits, i, i + 3);
    return sb.toString();
  }

  /** {@code repr(list_of_str)}, e.g. {@code ['a', 'b']}. */
  public static String repr(List<String> items) {
    List<String> parts = new ArrayList<>();
    for (String s : items) parts.add(repr(s));
    return "[" + String.join(", ", parts) + "]";
  }

  /**
   * {@code template.format(**fields)} for templates whose only braces are {@code {field}} placeholders; one pass, so a
   * substituted value is never re-scanned.
   */
  static String format(String template, Map<String, String> fields) {
    StringBuilder b = new StringBuilder();
    int i = 0;
    while (i < template.length()) {
      int open = template.indexOf('{', i);
      int close = open < 0 ? -1 : template.indexOf('}', open);
      if (open < 0 || close < 0) break;
      String key = template.substring(open + 1, close);
      b.append(template, i, open);
      b.append(fields.containsKey(key) ? fields.get(key) : template.substring(open, close + 1));
      i = close + 1;
    }
    return b.append(template.substring(i)).toString();
  }
}
