package dev.h2beam.adapters.config;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * The key values this process holds in its environment: every variable named as a credential ({@code *_KEY},
 * {@code *_API_KEY}, {@code *TOKEN}, {@code *SECRET}, {@code *PASSWORD}, in any case) whose value is shaped like one
 * ({@link #secretShaped}). An endpoint's {@code api_key_env} is such a name in practice ({@code OPENAI_API_KEY}, {@code VLLM_API_KEY}), and
 * a local server's key ({@code token-abc123…}) has no provider shape for {@link KeyShapes} to see: its exact value is
 * what a screen looks for. Only names are ever shown, never values.
 */
public final class EnvKeys {
  private EnvKeys() {}

  /** Shorter values are not looked for: a placeholder ({@code x}, {@code none}) would be found in every text. */
  public static final int MIN_CHARS = 8;

  /** A variable and the key value it holds. */
  public record Held(String variable, String value) {}

  private static volatile List<Held> current = of(System.getenv());

  /** The key values of {@code env}, by variable name, longest first (a key inside another is found as the longer). */
  public static List<Held> of(Map<String, String> env) {
    List<Held> out = new ArrayList<>();
    for (Map.Entry<String, String> e : new TreeMap<>(env).entrySet()) {
      String v = e.getValue() == null ? "" : e.getValue().strip();
      if (!namedAsKey(e.getKey()) || !secretShaped(v)) continue;
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
   * that runs h2beam with an environment of its own. Returns what was looked for before, to put back.
   */
  public static List<Held> use(Map<String, String> env) {
    List<Held> was = current;
    current = of(env);
    return was;
  }

  /** Puts back what {@link #use} returned. */
  public static void restore(List<Held> was) {
    current = was;
  }

  /** What stands in a text or file for a held key's value that was taken out of it. */
  public static final String REDACTED = "[redacted key]";

  /** {@code text} with every held key's value replaced by {@link #REDACTED}; {@code text} itself when it holds none. */
  public static String redact(String text) {
    if (text == null) return null;
    for (Held h : current) if (text.contains(h.value())) text = text.replace(h.value(), REDACTED);
    return text;
  }

  /** The first held key whose value {@code text} contains, or null. */
  public static Held foundIn(String text) {
    for (Held h : current) if (text.contains(h.value())) return h;
    return null;
  }
}
