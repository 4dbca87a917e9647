package dev.h2beam.adapters.config;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

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

  /**
   * Larger files are not read whole but streamed ({@link #streamedOut}), for their exact forms only: memory stays
   * bounded however much an agent wrote (an agent's output is far smaller).
   */
  static final long LARGEST = 64L << 20;

  /** How much of a larger file is read at a time. */
  static final int CHUNK = 1 << 20;

  /**
   * What stands for a held key's value in a file or folder name it was taken out of. Not {@link EnvKeys#REDACTED}:
   * that has a space and brackets, which are legal in a Linux name but split an unquoted shell word and make a glob
   * pattern ({@code [redacted key]} matches one letter), and a name goes on into listings, prompts and the commands
   * an agent or a user types; this one is of the portable file name characters ({@code A-Za-z0-9._-}).
   */
  public static final String NAME_REDACTED = "redacted-key";

  /**
   * What was found in one rollout's folders, each path from its folder's name on: the files rewritten, the variables
   * whose values were found, the files, folders and links renamed because their name held one (as they are named
   * now), and the symbolic links removed because their target held one (their name with the key taken out).
   */
  public record Found(List<String> files, TreeSet<String> variables, List<String> renamed, List<String> removed) {
    public boolean any() {
      return !files.isEmpty() || !renamed.isEmpty() || !removed.isEmpty();
    }

    /**
     * The warning for the user, naming the variables and the paths as they are now, never a value; empty when
     * nothing was found.
     */
    public String warning(String rollout) {
      if (!any()) return "";
      List<String> parts = new ArrayList<>();
      if (!files.isEmpty()) {
        parts.add(files.size() + " file(s) (" + firstFive(files) + "), each replaced with " + EnvKeys.REDACTED);
      }
      if (!renamed.isEmpty()) {
        parts.add("the name of " + renamed.size() + " file(s) or folder(s) (now " + firstFive(renamed)
            + "), renamed with " + NAME_REDACTED + " in its place");
      }
      if (!removed.isEmpty()) {
        parts.add("the target of " + removed.size() + " symbolic link(s) (" + firstFive(removed) + "), removed");
      }
      return "h2beam: the rollout " + rollout + " wrote the value of $" + String.join(", $", variables) + " into "
          + String.join("; into ", parts) + "; before anything read them. A program run as your user can read"
          + " h2beam's environment: rotate the key, and run agents you do not trust as another user or in a container"
          + " (README, \"What h2beam does not isolate\")";
    }

    private static String firstFive(List<String> paths) {
      return String.join(", ", paths.subList(0, Math.min(5, paths.size()))) + (paths.size() > 5 ? ", ..." : "");
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
    text = replaced(text, held, variables, EnvKeys.REDACTED);
    if (variables.isEmpty()) return bytes;
    System.err.println(new Found(List.of("its output"), variables, List.of(), List.of()).warning(rollout));
    return text.getBytes(StandardCharsets.ISO_8859_1);
  }

  /**
   * {@code text} (bytes as ISO-8859-1 chars) with each held value, also split apart or reversed ({@link #splitsOut}),
   * and each encoded form the credential screen looks for ({@link EnvKeys.Held#forms}: base64, hex, reversed),
   * replaced by {@code with}; the variables found go in {@code into}.
   */
  private static String replaced(String text, List<EnvKeys.Held> held, TreeSet<String> into, String with) {
    // the values first, overlapping ones together: replacing a key that shares characters with its reverse
    // (...-ks + sk-...) as one exact form would leave the other's remaining characters
    text = splitsOut(text, into, with);
    for (EnvKeys.Held h : held) {
      for (String form : h.forms()) {
        // ISO-8859-1 maps each byte to one char and back, so a file that is not UTF-8 keeps its other bytes as they
        // were; a key's UTF-8 bytes are found and replaced as the same chars
        String bytes = EnvKeys.asBytes(form);
        if (!text.contains(bytes)) continue;
        into.add(h.variable());
        text = text.replace(bytes, with);
      }
    }
    return text;
  }

  /**
   * {@code text} (bytes as ISO-8859-1 chars) with each held value, or the value reversed, that is split apart
   * ({@link EnvKeys#splitIn}: across lines, as string concatenation, spaced out) replaced by {@code with} from its
   * first character to its last, what split it included: the exact forms alone leave a key an agent wrote as
   * {@code "sk-ab" + "cd"} on disk, from where it travels into prompts, evidence and the library. Occurrences that
   * overlap (two keys, or a key and its reverse, sharing characters) go as one. A text that is UTF-8 is searched as
   * its characters, so that a hidden character inside a key (a zero-width space: three bytes) splits it as it does
   * for the screen; any other is searched as its bytes. Either way its other bytes are kept as they were.
   */
  private static String splitsOut(String text, TreeSet<String> into, String with) {
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
      out.append(seen, kept, s.at()).append(with);
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
   * Takes every held key's value out of what a rollout left under {@code dirs}, in place: the rollout is not yet
   * marked complete, so a crash in the middle leaves it to be rolled again. First the names, as the session harvest
   * takes them out of a workspace: a name reaches the completion marker (each deliverable's path and digest), the
   * evidence's file names and the prompts' file listings as a file's text does. A file, folder or symbolic link whose
   * name holds a value, exact, encoded or split apart, is renamed with {@link #NAME_REDACTED} in its place, deepest
   * first, so that a folder renamed does not move what below it is still to be renamed; a name already taken gets a
   * suffix ({@code -2}, ...), never overwriting anything. A symbolic link whose target holds one is removed: a link
   * cannot be rewritten, and none is ever followed. Then the text of every regular file ({@link #replaced}; a file
   * larger than {@link #LARGEST}: {@link #streamedOut}). Other entries (a pipe, a socket) are renamed only: they have
   * no text to read.
   */
  public static Found scrub(Path... dirs) throws IOException {
    List<EnvKeys.Held> held = EnvKeys.current();
    List<String> files = new ArrayList<>();
    TreeSet<String> variables = new TreeSet<>();
    List<String> renamed = new ArrayList<>();
    List<String> removed = new ArrayList<>();
    if (held.isEmpty()) return new Found(files, variables, renamed, removed);
    for (Path dir : dirs) {
      if (!Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS)) continue;
      Path parent = dir.toAbsolutePath().getParent();
      String shownDir = parent == null ? dir.toString() : parent.relativize(dir.toAbsolutePath()).toString();
      renames(dir, shownDir, held, variables, renamed, removed);
      List<Path> regular = new ArrayList<>();
      for (Path p : below(dir)) if (Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS)) regular.add(p);
      Collections.sort(regular);
      for (Path f : regular) {
        boolean changed;
        if (Files.size(f) > LARGEST) {
          changed = streamedOut(f, held, variables);
        } else {
          String read = new String(Files.readAllBytes(f), StandardCharsets.ISO_8859_1);
          String text = replaced(read, held, variables, EnvKeys.REDACTED);
          changed = !text.equals(read);
          if (changed) Files.write(f, text.getBytes(StandardCharsets.ISO_8859_1));
        }
        if (changed) files.add(shownDir + "/" + dir.relativize(f));
      }
    }
    Collections.sort(renamed);
    Collections.sort(removed);
    return new Found(files, variables, renamed, removed);
  }

  /**
   * Everything below {@code dir}, a folder before what is in it, each folder's entries in name order; a symbolic link
   * is listed, never followed. An explicit queue, not recursion: an agent can nest folders deeper than a stack goes.
   */
  private static List<Path> below(Path dir) throws IOException {
    List<Path> out = new ArrayList<>();
    List<Path> folders = new ArrayList<>();
    folders.add(dir);
    for (int i = 0; i < folders.size(); i++) {
      List<Path> in = new ArrayList<>();
      try (DirectoryStream<Path> entries = Files.newDirectoryStream(folders.get(i))) {
        for (Path p : entries) in.add(p);
      }
      Collections.sort(in);
      for (Path p : in) {
        out.add(p);
        if (Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS)) folders.add(p);
      }
    }
    return out;
  }

  /**
   * Renames what below {@code dir} has a held value in its name, removes each symbolic link whose target holds one
   * ({@link #scrub(Path...)}), and adds to {@code renamed} and {@code removed} their paths as they are afterwards,
   * from {@code shownDir} on. {@link #below} lists a folder before what is in it, so going through it backwards
   * renames what is deeper first, and each path still names what it did when listed.
   */
  private static void renames(Path dir, String shownDir, List<EnvKeys.Held> held, TreeSet<String> variables,
      List<String> renamed, List<String> removed) throws IOException {
    List<Path> entries = below(dir);
    Map<Path, String> newNames = new HashMap<>();
    Set<Path> links = new HashSet<>();
    for (int i = entries.size() - 1; i >= 0; i--) {
      Path p = entries.get(i);
      String name = p.getFileName().toString();
      String clean = withoutKeys(name, held, variables);
      if (Files.isSymbolicLink(p)) {
        String target = Files.readSymbolicLink(p).toString();
        if (!withoutKeys(target, held, variables).equals(target)) {
          Files.delete(p);
          newNames.put(p, clean);
          links.add(p);
          continue;
        }
      }
      if (clean.equals(name)) continue;
      newNames.put(p, movedTo(p, clean));
    }
    for (Map.Entry<Path, String> e : newNames.entrySet()) {
      // the path as it is now: each folder on the way under its new name, if it has one
      StringBuilder now = new StringBuilder(shownDir);
      Path was = dir;
      for (Path part : dir.relativize(e.getKey())) {
        was = was.resolve(part);
        String newName = newNames.get(was);
        now.append('/').append(newName == null ? part.toString() : newName);
      }
      (links.contains(e.getKey()) ? removed : renamed).add(now.toString());
    }
  }

  /**
   * {@code name} with each held value in it, exact, encoded or split apart ({@link #replaced}), replaced by
   * {@link #NAME_REDACTED}; the variables found go in {@code into}. A name is searched as its UTF-8 bytes, as a
   * file's text is.
   */
  private static String withoutKeys(String name, List<EnvKeys.Held> held, TreeSet<String> into) {
    String bytes = EnvKeys.asBytes(name);
    String out = replaced(bytes, held, into, NAME_REDACTED);
    return out.equals(bytes) ? name : new String(out.getBytes(StandardCharsets.ISO_8859_1), StandardCharsets.UTF_8);
  }

  /**
   * Renames {@code p} to {@code name} beside it, or, when that is taken, to {@code name} with {@code -2},
   * {@code -3}, ... before its extension; returns the name it got. A move that is not told to replace fails when
   * the name is taken, so nothing is ever overwritten.
   */
  private static String movedTo(Path p, String name) throws IOException {
    int dot = name.lastIndexOf('.');
    if (dot <= 0) dot = name.length();
    for (int n = 1; ; n++) {
      String candidate = n == 1 ? name : name.substring(0, dot) + "-" + n + name.substring(dot);
      try {
        Files.move(p, p.resolveSibling(candidate), LinkOption.NOFOLLOW_LINKS);
        return candidate;
      } catch (FileAlreadyExistsException taken) {
        // the next suffix
      }
    }
  }

  /**
   * Replaces each held value's exact forms ({@link EnvKeys.Held#forms}: the value, its base64 and hex, reversed) in
   * {@code f}, a file larger than {@link #LARGEST}, by {@link EnvKeys#REDACTED}, reading it {@link #CHUNK} bytes at a
   * time with the longest form's length less one carried over, so that a form across two chunks is found and memory
   * stays bounded. A first pass only reads; when it found something, a second writes the file anew to a temporary
   * file beside it, which then replaces it: a clean large file is never written. A value split apart (across lines,
   * spaced out) is not looked for here: the split search needs the whole text, and an agent's output that large is
   * a log, not an answer a model reads whole (the evidence quotes only its head). Returns whether it replaced any.
   */
  static boolean streamedOut(Path f, List<EnvKeys.Held> held, TreeSet<String> variables) throws IOException {
    List<String> forms = new ArrayList<>();
    List<String> owners = new ArrayList<>();
    for (EnvKeys.Held h : held) {
      for (String form : h.forms()) {
        forms.add(EnvKeys.asBytes(form));
        owners.add(h.variable());
      }
    }
    if (!copied(f, OutputStream.nullOutputStream(), forms, owners, variables)) return false;
    Path tmp = Files.createTempFile(f.getParent(), ".h2beam-scrub-", ".tmp");
    try {
      try (OutputStream out = new BufferedOutputStream(Files.newOutputStream(tmp))) {
        copied(f, out, forms, owners, variables);
      }
      try {
        Files.setPosixFilePermissions(tmp, Files.getPosixFilePermissions(f, LinkOption.NOFOLLOW_LINKS));
      } catch (UnsupportedOperationException notPosix) {
        // the temporary file's own permissions stay
      }
      Files.move(tmp, f, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    } finally {
      Files.deleteIfExists(tmp);
    }
    return true;
  }

  /**
   * Writes {@code f} to {@code out} with each of {@code forms} (bytes as ISO-8859-1 chars) replaced by
   * {@link EnvKeys#REDACTED}, at each place the earliest, the longest there; the variable of each form found
   * ({@code owners}, by index) goes in {@code into}. Returns whether it replaced any.
   */
  private static boolean copied(Path f, OutputStream out, List<String> forms, List<String> owners,
      TreeSet<String> into) throws IOException {
    int longest = 0;
    for (String form : forms) longest = Math.max(longest, form.length());
    byte[] redacted = EnvKeys.REDACTED.getBytes(StandardCharsets.ISO_8859_1);
    byte[] buf = new byte[CHUNK];
    int[] next = new int[forms.size()];
    String carry = "";
    boolean found = false;
    try (InputStream in = Files.newInputStream(f, LinkOption.NOFOLLOW_LINKS)) {
      boolean last = false;
      while (!last) {
        int n = in.readNBytes(buf, 0, CHUNK);
        last = n < CHUNK;
        String text = carry + new String(buf, 0, n, StandardCharsets.ISO_8859_1);
        // a form starting before this ends lies wholly in text; one starting after may go on into the next chunk
        int safe = last ? text.length() : Math.max(0, text.length() - (longest - 1));
        for (int k = 0; k < next.length; k++) next[k] = text.indexOf(forms.get(k));
        int pos = 0;
        while (true) {
          int at = -1;
          int which = -1;
          for (int k = 0; k < next.length; k++) {
            if (next[k] >= 0 && next[k] < pos) next[k] = text.indexOf(forms.get(k), pos);
            if (next[k] < 0 || next[k] >= safe) continue;
            if (at < 0 || next[k] < at || next[k] == at && forms.get(k).length() > forms.get(which).length()) {
              at = next[k];
              which = k;
            }
          }
          if (at < 0) break;
          out.write(text.substring(pos, at).getBytes(StandardCharsets.ISO_8859_1));
          out.write(redacted);
          into.add(owners.get(which));
          found = true;
          pos = at + forms.get(which).length();
        }
        int keep = Math.max(pos, safe);
        out.write(text.substring(pos, keep).getBytes(StandardCharsets.ISO_8859_1));
        carry = text.substring(keep);
      }
    }
    return found;
  }
}
