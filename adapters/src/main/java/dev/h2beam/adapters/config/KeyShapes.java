package dev.h2beam.adapters.config;

import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The shapes of well-known provider keys (OpenAI and Anthropic {@code sk-…}, AWS {@code AKIA…}, GitHub {@code ghp_…}
 * and {@code github_pat_…}, Hugging Face {@code hf_…}, Slack {@code xox?-…}, Google {@code AIza…}, PEM private keys),
 * JSON Web Tokens ({@code eyJ…}) and bearer tokens ({@code Bearer …}). One list for every screen that must never keep
 * or show a key: the configuration file, the harness trees the method stores, and the error bodies a server sends back.
 */
public final class KeyShapes {
  private KeyShapes() {}

  /** A key shape; its first {@code shown} characters name the kind of key without revealing it. */
  public record Shape(Pattern pattern, int shown) {
    /** The first {@code shown} characters of a match and an ellipsis: enough to say which kind of key it was. */
    public String sample(String hit) {
      return hit.length() <= shown ? hit : hit.substring(0, shown) + "…";
    }
  }

  public static final List<Shape> SHAPES = List.of(
      new Shape(Pattern.compile("(?<![A-Za-z0-9_-])sk-(?:[A-Za-z0-9]+-)*[A-Za-z0-9]{20,}"), 3),
      new Shape(Pattern.compile("(?<![A-Za-z0-9])AKIA[0-9A-Z]{16}(?![A-Za-z0-9])"), 4),
      new Shape(Pattern.compile("(?<![A-Za-z0-9])gh[pousr]_[A-Za-z0-9]{36}(?![A-Za-z0-9])"), 4),
      new Shape(Pattern.compile("(?<![A-Za-z0-9])github_pat_[A-Za-z0-9_]{40,}"), 11),
      new Shape(Pattern.compile("(?<![A-Za-z0-9])hf_[A-Za-z0-9]{30,}(?![A-Za-z0-9])"), 3),
      new Shape(Pattern.compile("(?<![A-Za-z0-9])xox[abp]-[A-Za-z0-9]+(?:-[A-Za-z0-9]+)+"), 5),
      new Shape(Pattern.compile("-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY-----"), Integer.MAX_VALUE),
      new Shape(Pattern.compile("(?<![A-Za-z0-9])AIza[0-9A-Za-z_-]{35}(?![A-Za-z0-9_-])"), 4),
      // a JSON Web Token: two base64url JSON objects ({"...) and a signature
      new Shape(Pattern.compile("(?<![A-Za-z0-9_-])eyJ[A-Za-z0-9_-]{8,}\\.eyJ[A-Za-z0-9_-]{8,}\\.[A-Za-z0-9_-]{8,}"),
          3),
      // a bearer token of any provider: letters and digits both, so "Bearer your-token-goes-here" is prose
      new Shape(Pattern.compile("(?i)(?<![A-Za-z0-9])bearer\\s+(?=[A-Za-z0-9._~+/-]*[0-9])"
          + "(?=[A-Za-z0-9._~+/-]*[A-Za-z])[A-Za-z0-9._~+/-]{20,}=*"), 6));

  /**
   * Literal text every key of {@link #SHAPES} contains: a text without any of them holds no key, found with plain
   * substring searches instead of a regular expression per shape (the resume's screen reads every stored harness).
   */
  private static final List<String> MARKERS = List.of("sk-", "AKIA", "ghp_", "gho_", "ghu_", "ghs_", "ghr_",
      "github_pat_", "hf_", "xoxa-", "xoxb-", "xoxp-", "PRIVATE KEY-----", "AIza", "eyJ", "Bearer", "bearer", "BEARER");

  /** False when {@code text} cannot hold a key of any shape; true when it may. */
  public static boolean mayContainKey(String text) {
    for (String m : MARKERS) if (text.contains(m)) return true;
    return false;
  }

  /** The redacted sample of the first key in {@code text} (e.g. {@code sk-…}), if it holds one. */
  public static Optional<String> sample(String text) {
    if (!mayContainKey(text)) return Optional.empty();
    for (Shape shape : SHAPES) {
      Matcher m = shape.pattern().matcher(text);
      if (m.find()) return Optional.of(shape.sample(m.group()));
    }
    return Optional.empty();
  }

  public static boolean containsKey(String text) {
    return sample(text).isPresent();
  }

  /** {@code text} with every key-shaped run replaced by {@code [redacted key]}. */
  public static String redact(String text) {
    // every path a session left is shown through here: ten expressions over each was a few percent of a sweep's CPU
    if (!mayContainKey(text)) return text;
    String out = text;
    for (Shape shape : SHAPES) out = shape.pattern().matcher(out).replaceAll("[redacted key]");
    return out;
  }
}
