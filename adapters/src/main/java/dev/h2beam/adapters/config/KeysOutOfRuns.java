package dev.h2beam.adapters.config;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.stream.Stream;

/**
 * Takes the held keys' values ({@link EnvKeys}) out of what a rollout wrote, as soon as it ends and before anything
 * reads it. h2beam gives an agent a token in place of a key, but it does not sandbox the agent: a program running as
 * h2beam's user can read h2beam's own environment ({@code /proc/<pid>/environ}) and write the key into its answer or
 * print it into its trajectory. From there the deliverable would travel into the improvers', selector's and
 * reflector's prompts, the evidence folders and the library. Replacing the value in the rollout's files, before their
 * digests are recorded, stops it at the source, and the warning names the variable (never the value) so that the user
 * rotates the key.
 */
public final class KeysOutOfRuns {
  private KeysOutOfRuns() {}

  /** Larger files are not read (an agent's output is far smaller); they are named in the warning instead. */
  static final long LARGEST = 64L << 20;

  /**
   * What was found in one rollout's folders: the files rewritten (each from its folder's name on), the variables whose
   * values they held, and the files too large to read.
   */
  public record Found(List<String> files, TreeSet<String> variables, List<String> unread) {
    public boolean any() {
      return !files.isEmpty();
    }

    /** The warning for the user, naming the files and variables, never a value; empty when nothing was found. */
    public String warning(String rollout) {
      if (files.isEmpty()) return "";
      return "h2beam: the rollout " + rollout + " wrote the value of $" + String.join(", $", variables) + " into "
          + files.size() + " file(s) (" + String.join(", ", files.subList(0, Math.min(5, files.size())))
          + (files.size() > 5 ? ", ..." : "") + "); each was replaced with " + EnvKeys.REDACTED + " before anything"
          + " read it. A program run as your user can read h2beam's environment: rotate the key, and run agents you"
          + " do not trust as another user or in a container (README, \"What h2beam does not isolate\")"
          + (unread.isEmpty() ? "" : "; not read, larger than " + (LARGEST >> 20) + " MiB: " + unread);
    }
  }

  /**
   * {@code bytes} (a program's output h2beam is about to write) without any held key's value, each replaced by
   * {@link EnvKeys#REDACTED}; with a warning naming the variables and {@code rollout} when one was there.
   */
  public static byte[] scrub(byte[] bytes, String rollout) {
    List<EnvKeys.Held> held = EnvKeys.current();
    if (held.isEmpty()) return bytes;
    String text = new String(bytes, StandardCharsets.ISO_8859_1);
    TreeSet<String> variables = new TreeSet<>();
    text = replaced(text, held, variables);
    if (variables.isEmpty()) return bytes;
    System.err.println(new Found(List.of("its output"), variables, List.of()).warning(rollout));
    return text.getBytes(StandardCharsets.ISO_8859_1);
  }

  /**
   * {@code text} (bytes as ISO-8859-1 chars) with each held value, also split apart or reversed ({@link #splitsOut}),
   * and each encoded form the credential screen looks for ({@link EnvKeys.Held#forms}: base64, hex, reversed),
   * replaced; the variables found go in {@code into}.
   */
  private static String replaced(String text, List<EnvKeys.Held> held, TreeSet<String> into) {
    // the values first, overlapping ones together: replacing a key that shares characters with its reverse
    // (...-ks + sk-...) as one exact form would leave the other's remaining characters
    text = splitsOut(text, into);
    for (EnvKeys.Held h : held) {
      for (String form : h.forms()) {
        // ISO-8859-1 maps each byte to one char and back, so a file that is not UTF-8 keeps its other bytes as they
        // were; a key's UTF-8 bytes are found and replaced as the same chars
        String bytes = EnvKeys.asBytes(form);
        if (!text.contains(bytes)) continue;
        into.add(h.variable());
        text = text.replace(bytes, EnvKeys.REDACTED);
      }
    }
    return text;
  }

  /**
   * {@code text} (bytes as ISO-8859-1 chars) with each held value, or the value reversed, that is split apart
   * ({@link EnvKeys#splitIn}: across lines, as string concatenation, spaced out) replaced from its first character to
   * its last, what split it included: the exact forms alone leave a key an agent wrote as {@code "sk-ab" + "cd"} on
   * disk, from where it travels into prompts, evidence and the library. Occurrences that overlap (two keys, or a key
   * and its reverse, sharing characters) go as one. A text that is UTF-8 is searched as its characters, so that a
   * hidden character inside a key (a zero-width space: three bytes) splits it as it does for the screen; any other is
   * searched as its bytes. Either way its other bytes are kept as they were.
   */
  private static String splitsOut(String text, TreeSet<String> into) {
    String utf8 = utf8(text);
    String seen = utf8 == null ? text : utf8;
    List<EnvKeys.Split> found = EnvKeys.splitIn(seen, utf8 == null);
    if (found.isEmpty()) return text;
    StringBuilder out = new StringBuilder(seen.length());
    int kept = 0; // seen's chars before this are in out
    int i = 0;
    while (i < found.size()) {
      EnvKeys.Split s = found.get(i);
      int end = s.end();
      into.add(s.held().variable());
      // found in start order: each later one that starts before this span ends is part of it
      for (i++; i < found.size() && found.get(i).at() < end; i++) {
        end = Math.max(end, found.get(i).end());
        into.add(found.get(i).held().variable());
      }
      out.append(seen, kept, s.at()).append(EnvKeys.REDACTED);
      kept = end;
    }
    out.append(seen, kept, seen.length());
    return utf8 == null ? out.toString() : EnvKeys.asBytes(out.toString());
  }

  /**
   * The characters of {@code text}'s bytes (ISO-8859-1 chars) read as UTF-8: {@code text} itself when they are all
   * ASCII, null when they are not UTF-8. Valid UTF-8 decodes and encodes back to the same bytes.
   */
  private static String utf8(String text) {
    int i = 0;
    while (i < text.length() && text.charAt(i) < 0x80) i++;
    if (i == text.length()) return text;
    try {
      return StandardCharsets.UTF_8.newDecoder()
          .decode(ByteBuffer.wrap(text.getBytes(StandardCharsets.ISO_8859_1))).toString();
    } catch (CharacterCodingException e) {
      return null;
    }
  }

  /**
   * Rewrites every regular file under {@code dirs} that holds a held key's value (symbolic links are not followed),
   * in place: the rollout is not yet marked complete, so a crash in the middle leaves it to be rolled again.
   */
  public static Found scrub(Path... dirs) throws IOException {
    List<EnvKeys.Held> held = EnvKeys.current();
    List<String> files = new ArrayList<>();
    TreeSet<String> variables = new TreeSet<>();
    List<String> unread = new ArrayList<>();
    if (held.isEmpty()) return new Found(files, variables, unread);
    for (Path dir : dirs) {
      if (!Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS)) continue;
      List<Path> regular;
      try (Stream<Path> walk = Files.walk(dir)) {
        regular = walk.filter(f -> Files.isRegularFile(f, LinkOption.NOFOLLOW_LINKS)).sorted().toList();
      }
      for (Path f : regular) {
        if (Files.size(f) > LARGEST) {
          unread.add(f.toString());
          continue;
        }
        String read = new String(Files.readAllBytes(f), StandardCharsets.ISO_8859_1);
        String text = replaced(read, held, variables);
        if (text.equals(read)) continue;
        Files.write(f, text.getBytes(StandardCharsets.ISO_8859_1));
        Path named = dir.toAbsolutePath().getParent();
        files.add(named == null ? f.toString() : named.relativize(f.toAbsolutePath()).toString());
      }
    }
    return new Found(files, variables, unread);
  }
}
