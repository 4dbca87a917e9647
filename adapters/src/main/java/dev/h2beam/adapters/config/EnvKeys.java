package dev.h2beam.adapters.config;

import java.nio.charset.StandardCharsets;
import java.util.AbstractList;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.RandomAccess;
import java.util.Set;
import java.util.TreeMap;

/**
 * The key values this process holds in its environment, which every screen, scrub and redaction looks for:
 *
 * <ul>
 *   <li>the value of every variable an endpoint of this process reads its key from (its {@code api_key_env},
 *       {@link #holdValueOf}, called whenever an {@link Endpoint} is made, also when a worker deserializes one),
 *       whatever the variable's name or the value's shape, when it has {@link #MIN_CHARS} or more characters: the
 *       key h2beam sends is the one secret it knows for sure, and a name such as {@code AUDIT_CRED} or a key with no
 *       digit must not let it through. A shorter value ({@code none}, {@code EMPTY}: a local server's placeholder)
 *       is not held, since it would be found in every text;
 *   <li>the value of every other variable named as a credential ({@code *_KEY}, {@code *_API_KEY}, {@code *TOKEN},
 *       {@code *SECRET}, {@code *PASSWORD}, in any case) whose value is shaped like one ({@link #secretShaped}).
 * </ul>
 *
 * <p>A local server's key ({@code token-abc123…}) has no provider shape for {@link KeyShapes} to see: its exact value,
 * and the forms of it in {@link Held#forms}, are what a screen looks for. Only names are ever shown, never values.
 */
public final class EnvKeys {
  private EnvKeys() {}

  /** Shorter values are not looked for: a placeholder ({@code x}, {@code none}) would be found in every text. */
  public static final int MIN_CHARS = 8;

  /**
   * The fewest characters a form other than the value and its encodings has (a case, the body, {@link #body}), or
   * the value's length when that is less: a shorter piece of a key would match prose and hashes.
   */
  static final int FORM_CHARS = 16;

  /**
   * A variable, the key value it holds, and the forms of that value a screen looks for ({@link #encodings}): the value
   * itself, its base64 (standard and URL-safe, alone and at each of the three alignments it can take inside a longer
   * encoded text) and its hex in lower and upper case, the value written backwards, the value in upper and in lower
   * case, and its body ({@link #body}: the secret part after its public prefix) as it is, in upper and lower case
   * and written backwards. A key pasted encoded, reversed, in another case or without its prefix is still the key.
   * Other encodings (rot13, base32, URL-encoding, JSON unicode escapes, HTML entities, characters interleaved with
   * commas, a compressed file) are not looked for.
   */
  public record Held(String variable, String value, List<String> forms) {
    public Held {
      forms = List.copyOf(forms);
    }

    /** The variable's value and every encoded form of it. */
    public Held(String variable, String value) {
      this(variable, value, encodings(value));
    }

    /** Whether {@code text} holds the value or an encoded form of it. */
    boolean in(String text) {
      for (String f : forms) if (text.contains(f)) return true;
      return false;
    }

    /** The value written backwards: the form {@link #splitIn} looks for beside the value. */
    String reversed() {
      return reverse(value);
    }
  }

  /**
   * A held key found split in a text: which key, where in the text its first character stands, where its last one
   * ends (the index after it), and whether reversed. The span between is the key and what split it: what a scrub
   * replaces ({@link KeysOutOfRuns}), so that no piece of the key stays behind.
   */
  public record Split(Held held, int at, int end, boolean reversed) {}

  /**
   * Every place in {@code text} that holds a held key's value, or the value written backwards, or its body
   * ({@link #body}) as it is or backwards, with characters that split it standing between its own ({@link #splits}):
   * a key broken across lines, written as string concatenation ({@code "sk-ab" + "cd"}, {@code 'sk-ab' 'cd'}, a shell
   * line's {@code \}) or spaced out; in text order. An exact value is found there too, as a split with nothing
   * between; a body that stands inside a value found is not found again. Empty when no key is held.
   */
  public static List<Split> splitIn(String text) {
    return splitIn(text, false);
  }

  /**
   * {@link #splitIn}; when {@code bytes}, {@code text} is bytes read one char each (ISO-8859-1: a file that is not
   * UTF-8, as {@link KeysOutOfRuns} reads it) and each value is looked for as its UTF-8 bytes read so.
   */
  static List<Split> splitIn(String text, boolean bytes) {
    List<Held> held = current;
    // no key held (most sweeps: scripted sessions, a free executor): every screened text comes here
    if (held.isEmpty()) return List.of();
    List<Split> out = new ArrayList<>();
    for (Held h : held) {
      String body = body(h.value());
      int valueSplits = out.size(); // this key's splits from here on
      for (int f = 0; f < (body == null ? 2 : 4); f++) {
        boolean reversed = f % 2 == 1;
        String form = f < 2 ? h.value() : body;
        if (reversed) form = reverse(form);
        if (bytes) form = asBytes(form);
        char first = form.charAt(0);
        // found from its first character's occurrences (an intrinsic search): a text without it costs one scan; each
        // one is tried, also inside an occurrence found, since one that overlaps it (abab1ab in abab1abab1ab) leaves
        // a piece of the key behind when only the first is taken out
        for (int i = text.indexOf(first); i >= 0; i = text.indexOf(first, i + 1)) {
          int end = splitEnd(text, form, i);
          if (end >= 0 && (f < 2 || !within(out, valueSplits, i))) out.add(new Split(h, i, end, reversed));
        }
      }
    }
    // most texts hold none, and a rollout's scrub comes here after each rollout: no comparator to link for them
    if (out.size() > 1) out.sort(Comparator.comparingInt(Split::at));
    return out;
  }

  /** Whether {@code at} stands inside one of {@code found}'s splits from {@code from} on. */
  private static boolean within(List<Split> found, int from, int at) {
    for (int k = from; k < found.size(); k++) if (found.get(k).at() <= at && at < found.get(k).end()) return true;
    return false;
  }

  /**
   * Whether {@code c} may stand inside a key split apart: white space (a line break), a quote, {@code +} or {@code .}
   * (concatenation), a backslash (a continued line), or a hidden character ({@link HiddenChars}).
   */
  static boolean splits(char c) {
    return Character.isWhitespace(c) || c == '"' || c == '\'' || c == '`' || c == '+' || c == '.' || c == '\\'
        || HiddenChars.isHidden(c);
  }

  /**
   * Where the occurrence of {@code form} that starts at {@code at} in {@code text}, with {@link #splits} characters
   * between its own, ends (the index after its last character); -1 when none starts there.
   */
  static int splitEnd(String text, String form, int at) {
    if (at >= text.length() || text.charAt(at) != form.charAt(0)) return -1;
    int t = at + 1;
    int k = 1;
    while (k < form.length() && t < text.length()) {
      char c = text.charAt(t);
      if (c == form.charAt(k)) k++;
      else if (!splits(c)) return -1;
      t++;
    }
    return k == form.length() ? t : -1;
  }

  /** {@code s}'s UTF-8 bytes read one char each (ISO-8859-1): how a text read so holds {@code s}. */
  static String asBytes(String s) {
    return new String(s.getBytes(StandardCharsets.UTF_8), StandardCharsets.ISO_8859_1);
  }

  /**
   * The value first, then its encodings and the value reversed, each at least as long as the value; then the value in
   * upper and in lower case, and its body ({@link #body}) as it is, in upper and lower case and reversed, each of them
   * kept only when it has {@link #FORM_CHARS} characters or the value's length, whichever is less, and never fewer
   * than {@link #MIN_CHARS}: a short form would match prose. A key pasted in capitals, or its secret part pasted
   * without the public prefix ({@code sk-proj-}, {@code token-}) that anyone can guess, is all of its secret.
   */
  static List<String> encodings(String value) {
    byte[] bytes = value.getBytes(StandardCharsets.UTF_8);
    LinkedHashSet<String> out = new LinkedHashSet<>();
    out.add(value);
    HexFormat hex = HexFormat.of();
    out.add(hex.formatHex(bytes));
    out.add(hex.withUpperCase().formatHex(bytes));
    for (Base64.Encoder enc : List.of(Base64.getEncoder(), Base64.getUrlEncoder())) {
      out.add(enc.encodeToString(bytes)); // alone, padded
      for (int lead = 0; lead < 3; lead++) {
        // inside a longer text: lead bytes before the value share its first characters, the bytes after it its
        // last one, so only the characters that its bytes alone decide are looked for
        byte[] shifted = new byte[lead + bytes.length];
        System.arraycopy(bytes, 0, shifted, lead, bytes.length);
        String s = enc.withoutPadding().encodeToString(shifted);
        int from = lead == 0 ? 0 : lead + 1;
        int to = shifted.length % 3 == 0 ? s.length() : s.length() - 1;
        if (to - from >= value.length()) out.add(s.substring(from, to));
      }
    }
    out.add(reverse(value));
    int least = Math.max(MIN_CHARS, Math.min(FORM_CHARS, value.length()));
    String body = body(value);
    String[] more = body == null
        ? new String[] {upper(value), lower(value)}
        : new String[] {upper(value), lower(value), body, upper(body), lower(body), reverse(body)};
    for (String f : more) if (f.length() >= least) out.add(f);
    return List.copyOf(out);
  }

  /**
   * The key's body: what follows its last {@code -} or {@code _}, when that has {@link #FORM_CHARS} or more
   * characters; else null (no separator, or a short last part). For {@code sk-proj-<20 random characters>} it is
   * those 20 characters, all of the key's entropy. A key whose random part itself holds a {@code -} or
   * {@code _} (base64url) may have a last part too short, and then no body is looked for: the value and its other
   * forms still are.
   */
  static String body(String value) {
    int cut = Math.max(value.lastIndexOf('-'), value.lastIndexOf('_'));
    if (cut < 0 || value.length() - cut - 1 < FORM_CHARS) return null;
    return value.substring(cut + 1);
  }

  private static String reverse(String s) {
    return new StringBuilder(s).reverse().toString();
  }

  private static String upper(String s) {
    return s.toUpperCase(Locale.ROOT);
  }

  private static String lower(String s) {
    return s.toLowerCase(Locale.ROOT);
  }

  /** Held while {@link #configured}, {@link #source} and {@link #current} change: each is made from the others. */
  private static final Object LOCK = new Object();

  /**
   * The variables endpoints of this process read their keys from ({@link #holdValueOf}); only ever grows, since an
   * endpoint made once may be used any time after. Replaced whole (read without the lock).
   */
  private static volatile Set<String> configured = Set.of();

  /** The environment {@link #current} is made from: this process's, or the one {@link #use} was last given. */
  private static Map<String, String> source = System.getenv();

  private static volatile List<Held> current = of(System.getenv());

  /**
   * From now on, holds the value of {@code variable} (an endpoint's {@code api_key_env}) whatever its name or shape,
   * when it has {@link #MIN_CHARS} or more characters; a shorter value (a local server's {@code none} or {@code EMPTY})
   * is not held. Called by every {@link Endpoint} made, so that each JVM that knows an endpoint (the client, and a
   * worker that deserialized the configuration) looks for the key it sends; the value is read from the environment
   * {@link #current} is made from, and never shown. Costs a set lookup when the variable is held already.
   */
  public static void holdValueOf(String variable) {
    if (variable == null || variable.isEmpty() || configured.contains(variable)) return;
    synchronized (LOCK) {
      if (configured.contains(variable)) return;
      Set<String> more = new HashSet<>(configured);
      more.add(variable);
      configured = Set.copyOf(more);
      current = of(source);
    }
  }

  /**
   * The key values of {@code env}, by variable name, longest first (a key inside another is found as the longer): each
   * variable an endpoint reads ({@link #holdValueOf}) whose value has {@link #MIN_CHARS} characters or more, and each
   * other variable named as a key ({@link #namedAsKey}) whose value is {@link #secretShaped}.
   */
  public static List<Held> of(Map<String, String> env) {
    Set<String> read = configured;
    List<Held> out = new ArrayList<>();
    for (Map.Entry<String, String> e : new TreeMap<>(env).entrySet()) {
      String v = e.getValue() == null ? "" : e.getValue().strip();
      boolean held = read.contains(e.getKey()) ? v.length() >= MIN_CHARS : namedAsKey(e.getKey()) && secretShaped(v);
      if (!held) continue;
      out.add(new Held(e.getKey(), v));
    }
    out.sort((a, b) -> Integer.compare(b.value().length(), a.value().length()));
    return List.copyOf(out);
  }

  /**
   * Whether a value can be a secret to look for: {@link #MIN_CHARS} or more, one word, with a digit, and not a path or
   * an address. A setting that merely has a key-like name ({@code SORT_KEY=lastname}, {@code APT_KEY=/etc/apt/...})
   * would otherwise make every text that mentions it a credential.
   */
  static boolean secretShaped(String v) {
    return v.length() >= MIN_CHARS && v.chars().noneMatch(Character::isWhitespace) && v.chars().anyMatch(
        Character::isDigit) && !v.startsWith("/") && !v.startsWith("~") && !v.contains("://");
  }

  /** Whether a variable's name says it holds a credential. */
  static boolean namedAsKey(String name) {
    String n = name.toUpperCase(Locale.ROOT);
    return n.endsWith("KEY") || n.endsWith("KEYS") || n.contains("API_KEY") || n.contains("TOKEN")
        || n.contains("SECRET") || n.contains("PASSWORD") || n.contains("PASSWD");
  }

  /** The key values of this process's environment. */
  public static List<Held> current() {
    return current;
  }

  /**
   * Screens from now on look for the key values of {@code env} instead of this process's own: for a test, or a host
   * that runs h2beam with an environment of its own. An endpoint's variable ({@link #holdValueOf}) is read from
   * {@code env} too, also one configured later. Returns what was looked for before, to put back.
   */
  public static List<Held> use(Map<String, String> env) {
    Map<String, String> given = Collections.unmodifiableMap(new HashMap<>(env));
    synchronized (LOCK) {
      Was was = new Was(current, source);
      source = given;
      current = of(given);
      return was;
    }
  }

  /**
   * Puts back what {@link #use} returned: the environment it was made from, with the variables endpoints configured
   * since then held in it too.
   */
  public static void restore(List<Held> was) {
    synchronized (LOCK) {
      if (was instanceof Was w) {
        source = w.source;
        current = of(w.source);
      } else {
        current = List.copyOf(was);
      }
    }
  }

  /** What {@link #use} returns: the keys held before, and the environment they were made from, to put back. */
  private static final class Was extends AbstractList<Held> implements RandomAccess {
    private final List<Held> held;
    private final Map<String, String> source;

    Was(List<Held> held, Map<String, String> source) {
      this.held = held;
      this.source = source;
    }

    @Override
    public Held get(int i) {
      return held.get(i);
    }

    @Override
    public int size() {
      return held.size();
    }
  }

  /** What stands in a text or file for a held key's value that was taken out of it. */
  public static final String REDACTED = "[redacted key]";

  /**
   * The first held key whose value, or an encoding of it ({@link Held#forms}), {@code text} contains, with or without
   * its hidden characters ({@link HiddenChars}: a UTF-16 file's NULs, a zero-width space inside the key); or null.
   */
  public static Held foundIn(String text) {
    if (current.isEmpty()) return null;
    String seen = HiddenChars.strip(text);
    for (Held h : current) if (h.in(text) || seen != text && h.in(seen)) return h;
    return null;
  }

  /**
   * {@code text} with every held key's value and every provider-shaped key ({@link KeyShapes#redact}) replaced by
   * {@code [redacted key]}: for a message that quotes what a model or a user wrote (a path, a file name), which may
   * hold a key.
   */
  public static String redact(String text) {
    if (text == null) return null;
    return KeyShapes.redact(KeyFree.text(text));
  }
}
