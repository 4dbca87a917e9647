package dev.h2beam.transforms.prompts;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Parsers for what sessions reply: stage notes, the selector's choice and reasons, and the reflector's records. */
public final class Replies {
  private static final Pattern NOTES = Pattern.compile("<notes>(.*?)</notes>", Pattern.DOTALL);
  private static final Pattern CHOICE =
      Pattern.compile("```choice\\s*\\n?\\s*([A-Za-z0-9_-]+)\\s*\\n?\\s*```", Pattern.DOTALL);
  private static final Pattern WHY = Pattern.compile("<why>(.*?)</why>", Pattern.DOTALL);
  private static final Pattern EDITS = Pattern.compile("<edits>(.*?)</edits>", Pattern.DOTALL);
  private static final Pattern EXPERIENCE = Pattern.compile("<experience>(.*?)</experience>", Pattern.DOTALL);
  private static final int WHY_MAX_CHARS = 2000;
  private static final Set<String> EXPERIENCE_KEYS = Set.of("cue", "lesson", "evidence", "confidence");

  private Replies() {}

  /** The first {@code <notes>} block, trimmed; without one, the whole reply trimmed. */
  public static String notes(String reply) {
    return first(NOTES, reply).orElse(reply.strip());
  }

  /** The id in the first fenced {@code choice} block anywhere in the reply. */
  public static Optional<String> choice(String reply) {
    Matcher m = CHOICE.matcher(reply);
    return m.find() ? Optional.of(m.group(1)) : Optional.empty();
  }

  /** The first {@code <why>} block, trimmed and cut to 2,000 characters; "" when there is none. */
  public static String why(String reply) {
    String why = first(WHY, reply).orElse("");
    return why.length() > WHY_MAX_CHARS ? why.substring(0, WHY_MAX_CHARS) : why;
  }

  /** The first {@code <edits>} block, trimmed (possibly empty when the block is). */
  public static Optional<String> edits(String reply) {
    return first(EDITS, reply);
  }

  /**
   * The lesson in the first {@code <experience>} block (spec §7.4 step 5): each line holding a colon read as
   * {@code key: value}, keys lower-cased and trimmed, only cue, lesson, evidence and confidence kept in the order
   * their lines appear (a repeated key keeps its first place and its last value), then {@code edits} when the reply
   * has a non-blank edits block. Empty when there is no experience block (a {@code NO_ENTRY} reply) or when cue,
   * lesson or evidence is missing or blank.
   */
  public static LinkedHashMap<String, String> experience(String reply) {
    LinkedHashMap<String, String> out = new LinkedHashMap<>();
    Optional<String> block = first(EXPERIENCE, reply);
    if (block.isEmpty()) return out;
    for (String line : block.get().split("\\R")) {
      int colon = line.indexOf(':');
      if (colon < 0) continue;
      String key = line.substring(0, colon).strip().toLowerCase(Locale.ROOT);
      if (EXPERIENCE_KEYS.contains(key)) out.put(key, line.substring(colon + 1).strip());
    }
    for (String required : new String[] {"cue", "lesson", "evidence"}) {
      if (out.getOrDefault(required, "").isBlank()) return new LinkedHashMap<>();
    }
    edits(reply).filter(e -> !e.isBlank()).ifPresent(e -> out.put("edits", e));
    return out;
  }

  private static Optional<String> first(Pattern p, String reply) {
    Matcher m = p.matcher(reply);
    return m.find() ? Optional.of(m.group(1).strip()) : Optional.empty();
  }
}
