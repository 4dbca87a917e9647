package dev.h2beam.adapters.config;

/**
 * The characters a reader does not see: NUL and the Unicode format characters (category Cf: zero-width space and
 * joiners, the byte order mark, bidirectional marks, soft hyphen). A UTF-16 file read as UTF-8 has a NUL between its
 * ASCII letters, and a zero-width space inside a key or an instruction hides it from an exact match while a model
 * still reads it; the screens match the text with these removed as well as the text itself.
 */
public final class HiddenChars {
  private HiddenChars() {}

  /** Whether the code point {@code cp} is one a reader does not see: NUL or a format character. */
  public static boolean isHidden(int cp) {
    return cp == 0 || Character.getType(cp) == Character.FORMAT;
  }

  /** {@code text} without its hidden characters: the same string when it has none, so a caller can test with ==. */
  public static String strip(String text) {
    int i = 0;
    while (i < text.length() && !isHidden(text.codePointAt(i))) i += Character.charCount(text.codePointAt(i));
    if (i == text.length()) return text;
    StringBuilder out = new StringBuilder(text.length());
    out.append(text, 0, i);
    while (i < text.length()) {
      int cp = text.codePointAt(i);
      if (!isHidden(cp)) out.appendCodePoint(cp);
      i += Character.charCount(cp);
    }
    return out.toString();
  }
}
