package dev.h2beam.transforms.safety;

import dev.h2beam.adapters.config.EnvKeys;
import dev.h2beam.adapters.config.HiddenChars;
import dev.h2beam.adapters.config.KeyShapes;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Finds literal credentials in harness trees and other text the method would keep or show to a model. A harness is
 * stored in the library, copied into later prompts and published with results, so a key written into one leaks
 * everywhere it travels; the fix is always to rotate the key and read it from the environment at run time.
 *
 * <p>A credential is a credential-named field ({@code apiKey}, {@code api_key}, {@code token}, {@code secret},
 * {@code password}, ... in any case, with a prefix such as {@code db_} and in the plural) holding a literal value, in
 * any of the shapes harness files take: {@code key: value} (YAML, frontmatter), {@code key = "value"} (TOML, shell,
 * Python), {@code "key": "value"} (JSON), a list of values on the same line ({@code tokens = ["…", "…"]}) or on the
 * lines below ({@code tokens:} then {@code - …} items, or a JSON array across lines); or any value shaped like a
 * provider key ({@link KeyShapes}: {@code sk-…}, {@code AKIA…}, {@code ghp_…}, a PEM private key block); or the exact
 * value of a key this process holds in its environment ({@link EnvKeys}: a local server's key has no provider shape),
 * or its base64 or hex, named by its variable; the value is found reversed, and split apart too: across lines, as
 * string concatenation ({@code "sk-ab" +} then {@code "cd"}) or with white space inside ({@link EnvKeys#splitIn}).
 * Hidden characters (a UTF-16 file's NULs, a zero-width space inside a key) do not hide a key: the text is also
 * screened without them. A key in a file's name is a finding as well.
 *
 * <p>The screen aims for few false positives: the word "token" in prose, a key read from {@code $VAR}, {@code
 * ${VAR}}, {@code <placeholder>} or {@code os.environ}, and short or numeric values are not findings. A finding names
 * the field and shows at most the kind of key, never the value.
 */
public final class CredentialScreen {

  private static final String NAME = "[A-Za-z0-9_.-]*?(?:api[_-]?key|token|secret|password|passwd|access[_-]?key)s?";

  /** A credential-named key with {@code =} or {@code :} and a value; the key may carry a prefix such as {@code db_}. */
  private static final Pattern ASSIGNMENT = Pattern.compile(
      "(?i)(?<![A-Za-z0-9])(" + NAME + ")([\"']?\\s*[:=]\\s*)([\"']?)([^\\s\"'`,;]+)");

  /** A credential-named key whose value is a list opened on the same line: {@code tokens: [a, b]}. */
  private static final Pattern INLINE_LIST = Pattern.compile(
      "(?i)(?<![A-Za-z0-9])(" + NAME + ")[\"']?\\s*[:=]\\s*\\[([^\\]]*)(\\]?)");

  /** A credential-named key with nothing after it: its value is on the lines below (a list or a block). */
  private static final Pattern KEY_ALONE = Pattern.compile(
      "(?i)^(\\s*)[-\\s]*[\"']?(" + NAME + ")[\"']?\\s*[:=]\\s*(?:[|>][-+]?)?\\s*$");

  /** One item of a list continued below its key: {@code - value}, {@code "value",} or a bare indented value. */
  private static final Pattern ITEM = Pattern.compile("^\\s*(?:-\\s+)?([\"']?)([^\\s\"',\\]\\[]+)[\"']?\\s*,?\\s*$");

  /** Value prefixes that read a secret from somewhere else rather than holding it. */
  private static final List<String> INDIRECT = List.of(
      "$", "<", "{", "%", "os.environ", "os.getenv", "process.env", "getenv", "env[", "env.", "environ");

  /** Words that mark a value as a stand-in for a real secret. */
  private static final List<String> PLACEHOLDER_WORDS = List.of(
      "your", "example", "placeholder", "changeme", "change_me", "redacted", "dummy", "xxxx", "****", "...", "…");

  private static final Pattern IDENTIFIER =
      Pattern.compile("[A-Za-z_][A-Za-z0-9_]*(?:\\.[A-Za-z_][A-Za-z0-9_]*)*");
  private static final int MIN_VALUE_CHARS = 8;

  private CredentialScreen() {}

  /**
   * One credential found: its line (from 1), the field that holds it ({@code apiKey}; empty for a key-shaped value
   * outside any named field) and a sample that shows only the field or the kind of key ({@code apiKey=…},
   * {@code sk-…}).
   */
  public record Hit(int line, String field, String sample) {
    /** {@code line 3, field apiKey (apiKey=…)}: where it is, never what it is. */
    public String where() {
      return "line " + line + (field.isEmpty() ? "" : ", field " + field) + " (" + sample + ")";
    }
  }

  /** What every credential finding tells the user to do, in this order. */
  public static final String WHAT_TO_DO = "rotate the key first (it has been written to disk and may have reached a"
      + " model), then remove it and read it from the environment at run time";

  /**
   * Returns one problem per credential in {@code tree} (relative path → text), naming the file, line and field and
   * saying what to do, never repeating the secret. A path that itself holds a key (a file named after the key's
   * value) is a finding too, and every path is shown {@link #redact redacted}. Paths are visited in sorted order.
   */
  public static List<String> findings(Map<String, String> tree) {
    List<String> out = new ArrayList<>();
    for (Map.Entry<String, String> file : new TreeMap<>(tree).entrySet()) {
      String path = redact(file.getKey());
      Optional<String> named = inPath(file.getKey());
      if (named.isPresent()) {
        out.add(path + " holds what looks like a credential in its name (" + named.get() + "); harness trees must"
            + " never carry credentials, in a file's name or its text: " + WHAT_TO_DO);
      }
      for (Hit h : hits(file.getValue())) {
        out.add(path + " " + h.where() + " holds what looks like a literal credential; harness trees must"
            + " never carry credentials: " + WHAT_TO_DO);
      }
    }
    return out;
  }

  /**
   * What a relative path holds in its name, shown without the value ({@code the value of $VAR}, {@code sk-…}), if it
   * holds a key: a held key's value or an encoding of it, or a provider-shaped key. A file name reaches the same
   * listings, diffs and prompts its text does.
   */
  public static Optional<String> inPath(String path) {
    EnvKeys.Held held = EnvKeys.foundIn(path);
    if (held != null) return Optional.of("the value of $" + held.variable());
    return KeyShapes.sample(path);
  }

  /**
   * {@code text} with every held key's value and every provider-shaped key replaced by {@code [redacted key]}: for
   * any reason or listing that quotes a path or a name the improver or a method chose, built before it reaches the
   * console, a summary or a later prompt.
   */
  public static String redact(String text) {
    return EnvKeys.redact(text);
  }

  /**
   * Every credential in {@code text}, at most one per line, in line order. The text is screened as it is and, when
   * it has any, without its hidden characters ({@link HiddenChars}: a UTF-16 file's NULs, a zero-width space inside a
   * key): removing them never removes a line break, so the line numbers of both agree.
   */
  public static List<Hit> hits(String text) {
    List<Hit> out = visibleHits(text);
    String seen = HiddenChars.strip(text);
    if (seen == text) return out;
    for (Hit h : visibleHits(seen)) if (out.stream().noneMatch(o -> o.line() == h.line())) out.add(h);
    out.sort(Comparator.comparingInt(Hit::line));
    return out;
  }

  /** {@link #hits} of the text as it is. */
  private static List<Hit> visibleHits(String text) {
    // A text with no credential word and nothing key-shaped has no line with one (each line's lower case is a piece of
    // the text's: the words and markers are ASCII, and only the final sigma lowers by its context), so no line can
    // match: nearly every harness file and lesson screened, once each, without splitting it into lines
    EnvKeys.Held held = EnvKeys.foundIn(text);
    List<EnvKeys.Split> split = EnvKeys.splitIn(text);
    if (held == null && split.isEmpty() && !namesCredential(text) && !KeyShapes.mayContainKey(text)) {
      return new ArrayList<>();
    }
    List<Hit> out = hitsByLine(text);
    // a held value split apart (across lines, by "+" or quotes, spaced out) or reversed: named where it starts
    for (EnvKeys.Split s : split) {
      int line = OverrideScreen.lineOf(text, s.at());
      if (out.stream().noneMatch(o -> o.line() == line)) {
        out.add(new Hit(line, "", "the value of $" + s.held().variable() + (s.reversed() ? ", reversed" : "")));
      }
    }
    out.sort(Comparator.comparingInt(Hit::line));
    if (held != null) {
      // the exact value of a key this process holds: found wherever it stands, whatever its shape
      String[] lines = text.split("\\R", -1);
      for (int i = 0; i < lines.length; i++) {
        int line = i + 1;
        EnvKeys.Held h = EnvKeys.foundIn(lines[i]);
        if (h != null && out.stream().noneMatch(o -> o.line() == line)) {
          out.add(new Hit(line, "", "the value of $" + h.variable()));
        }
      }
      out.sort(Comparator.comparingInt(Hit::line));
    }
    return out;
  }

  /** {@link #hits}, every line looked at. */
  static List<Hit> hitsByLine(String text) {
    List<Hit> out = new ArrayList<>();
    String[] lines = text.split("\\R", -1);
    String pending = null; // the field whose values continue on the lines below
    int pendingIndent = -1;
    for (int i = 0; i < lines.length; i++) {
      String line = lines[i];
      if (pending != null) {
        Matcher item = ITEM.matcher(line);
        if (line.isBlank() || line.strip().startsWith("]")) {
          pending = line.isBlank() ? pending : null;
          continue;
        }
        if (indent(line) > pendingIndent || line.stripLeading().startsWith("-") && item.matches()) {
          if (item.matches() && isLiteral(item.group(2), !item.group(1).isEmpty())) {
            out.add(new Hit(i + 1, pending, pending + "[…]"));
            continue;
          }
          Optional<String> shaped = KeyShapes.sample(line);
          if (shaped.isPresent()) out.add(new Hit(i + 1, pending, shaped.get()));
          continue;
        }
        pending = null;
      }
      // a line with no credential word and nothing key-shaped can match none of the patterns below
      if (!namesCredential(line) && !KeyShapes.mayContainKey(line)) continue;
      Optional<Hit> hit = onLine(line, i + 1);
      hit.ifPresent(out::add);
      Matcher alone = KEY_ALONE.matcher(line);
      Matcher list = INLINE_LIST.matcher(line);
      if (alone.matches()) {
        pending = alone.group(2);
        pendingIndent = alone.group(1).length();
      } else if (hit.isEmpty() && list.find() && list.group(3).isEmpty()) {
        pending = list.group(1); // a list opened here and closed on a later line
        pendingIndent = indent(line);
      }
    }
    return out;
  }

  private static Optional<Hit> onLine(String line, int number) {
    Optional<String> shaped = KeyShapes.sample(line);
    Matcher m = ASSIGNMENT.matcher(line);
    String named = "";
    while (m.find()) {
      if (named.isEmpty()) named = m.group(1);
      boolean quoted = !m.group(3).isEmpty();
      if (isLiteral(m.group(4), quoted)) {
        return Optional.of(new Hit(number, m.group(1), shaped.orElse(m.group(1) + m.group(2)
            .replaceAll("[\"'\\s]", "") + "…")));
      }
    }
    Matcher list = INLINE_LIST.matcher(line);
    while (list.find()) {
      for (String item : list.group(2).split(",")) {
        String v = item.strip();
        boolean quoted = v.startsWith("\"") || v.startsWith("'");
        v = v.replaceAll("^[\"']|[\"']$", "");
        if (isLiteral(v, quoted)) return Optional.of(new Hit(number, list.group(1), list.group(1) + "[…]"));
      }
    }
    String field = named;
    return shaped.map(s -> new Hit(number, field, s));
  }

  /** Words every {@link #NAME} contains (its patterns fold ASCII case only, so lower case finds them all). */
  private static final List<String> NAME_WORDS = List.of("key", "token", "secret", "passw");

  /** Whether the line holds a word a credential-named field must contain: false means no {@link #NAME} matches. */
  private static boolean namesCredential(String line) {
    String lower = line.toLowerCase(Locale.ROOT);
    for (String w : NAME_WORDS) if (lower.contains(w)) return true;
    return false;
  }

  private static int indent(String line) {
    int n = 0;
    while (n < line.length() && (line.charAt(n) == ' ' || line.charAt(n) == '\t')) n++;
    return n;
  }

  private static boolean isLiteral(String value, boolean quoted) {
    if (value.length() < MIN_VALUE_CHARS) return false;
    String lower = value.toLowerCase(Locale.ROOT);
    for (String prefix : INDIRECT) if (lower.startsWith(prefix)) return false;
    for (String word : PLACEHOLDER_WORDS) if (lower.contains(word)) return false;
    if (value.contains("(")) return false; // a call such as getpass.getpass() computes the value
    if (value.chars().allMatch(c -> Character.isDigit(c) || c == '.' || c == '_')) return false; // a count or size
    if (quoted) return true;
    if (value.contains("[")) return false; // a subscript such as sys.argv[1]
    // Unquoted names are code (my_token_var, cfg.token) or prose (a word), not secrets; a bare mixed token is.
    boolean name = IDENTIFIER.matcher(value).matches()
        && (value.contains("_") || value.contains(".") || value.chars().noneMatch(Character::isDigit));
    return !name;
  }
}
