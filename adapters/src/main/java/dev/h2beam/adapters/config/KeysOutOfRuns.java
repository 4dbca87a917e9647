package dev.h2beam.adapters.config;

import java.io.IOException;
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
   * {@code text} (bytes as ISO-8859-1 chars) with each held value, and each encoded form the credential screen looks
   * for ({@link EnvKeys.Held#forms}: base64, hex, reversed), replaced; the variables found go in {@code into}.
   */
  private static String replaced(String text, List<EnvKeys.Held> held, TreeSet<String> into) {
    for (EnvKeys.Held h : held) {
      for (String form : h.forms()) {
        // ISO-8859-1 maps each byte to one char and back, so a file that is not UTF-8 keeps its other bytes as they
        // were; a key's UTF-8 bytes are found and replaced as the same chars
        String bytes = new String(form.getBytes(StandardCharsets.UTF_8), StandardCharsets.ISO_8859_1);
        if (!text.contains(bytes)) continue;
        into.add(h.variable());
        text = text.replace(bytes, EnvKeys.REDACTED);
      }
    }
    return text;
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
