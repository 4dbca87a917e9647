package dev.h2beam.adapters.llm;

import dev.h2beam.adapters.files.AtomicFiles;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Applies a model's edits, written as blocks in its reply, to the harness folder of a session:
 *
 * <pre>
 * &lt;file path="systemprompt.md"&gt;
 * ...the file's complete new content...
 * &lt;/file&gt;
 * &lt;delete path="skills/old/SKILL.md"/&gt;
 * &lt;notes&gt;...&lt;/notes&gt;
 * </pre>
 *
 * <p>All or nothing: every block is checked before any is applied, and one bad block refuses the reply with every
 * reason found. A path is relative to the harness folder (a leading {@code context/harness/} is accepted); absolute
 * paths, {@code ..}, backslashes, NUL, a path through a symbolic link and files over 256 KiB are refused. Files are
 * written to a temp file and renamed into place, because evidence files may be hard links shared with other folders.
 */
final class EditBlocks {
  static final int FILE_CAP = 256 * 1024;
  static final String PREFIX = "context/harness/";

  /**
   * A file block: the opening tag starts its line, the content begins on the next line or right after the tag (as
   * models often write it), and the closing tag stands alone on a later line.
   */
  private static final Pattern FILE = Pattern.compile(
      "^[ \\t]*<file path=\"([^\"\\n]*)\">(?:[ \\t]*\\r?\\n)?(.*?)^[ \\t]*</file>[ \\t]*\\r?$",
      Pattern.DOTALL | Pattern.MULTILINE);
  private static final Pattern OPENING = Pattern.compile("<file\\s+path\\s*=");
  private static final Pattern DELETE = Pattern.compile("<delete path=\"([^\"\\n]*)\"\\s*/>");
  private static final Pattern NOTES = Pattern.compile("<notes>(.*?)</notes>", Pattern.DOTALL);

  private EditBlocks() {}

  /** What became of a reply: applied (with the session's answer text) or refused (with every reason). */
  sealed interface Outcome {}

  /** @param text the reply's notes, or the whole reply when it has none; with a line per delete that was moot */
  record Applied(String text, int written, int deleted) implements Outcome {}

  record Refused(String reason) implements Outcome {}

  static Outcome apply(String reply, Path harness) throws IOException {
    Map<String, String> writes = new LinkedHashMap<>();
    List<String> deletes = new ArrayList<>();
    List<String> problems = new ArrayList<>();
    StringBuilder outside = new StringBuilder();
    Matcher m = FILE.matcher(reply);
    int from = 0;
    while (m.find()) {
      outside.append(reply, from, m.start());
      from = m.end();
      String content = m.group(2).replace("\r\n", "\n");
      String path = relative(m.group(1));
      String why = check(harness, path, false);
      int bytes = content.getBytes(StandardCharsets.UTF_8).length;
      if (why == null && bytes > FILE_CAP) {
        why = "is " + bytes + " bytes, over the " + FILE_CAP + "-byte limit for one file; keep harness files short";
      }
      if (why == null && writes.containsKey(path)) why = "is written twice; write each file once";
      if (why != null) problems.add(describe(m.group(1)) + " " + why);
      else writes.put(path, content);
    }
    outside.append(reply.substring(from));
    String rest = outside.toString();
    if (OPENING.matcher(rest).find()) {
      problems.add("a <file path=\"...\"> block is not closed: after the file's last line, put </file> on a line"
          + " of its own");
    }
    Matcher d = DELETE.matcher(rest);
    while (d.find()) {
      String path = relative(d.group(1));
      String why = check(harness, path, true);
      if (why == null && (writes.containsKey(path) || deletes.contains(path))) {
        why = "is written or deleted twice; name each file once";
      }
      if (why != null) problems.add(describe(d.group(1)) + " " + why);
      else deletes.add(path);
    }
    if (!problems.isEmpty()) return new Refused(String.join("; ", problems));

    List<String> moot = new ArrayList<>();
    for (String path : deletes) {
      Path target = harness.resolve(path);
      if (!Files.exists(target, LinkOption.NOFOLLOW_LINKS)) {
        moot.add("(delete of " + path + " ignored: there is no such file)");
        continue;
      }
      Files.delete(target);
      pruneEmptyParents(harness, target.getParent());
    }
    for (Map.Entry<String, String> w : writes.entrySet()) {
      AtomicFiles.writeString(harness.resolve(w.getKey()), w.getValue());
    }
    Matcher n = NOTES.matcher(rest);
    String notes = n.find() ? n.group(1).strip() : "";
    String text = notes.isEmpty() ? reply : notes;
    if (!moot.isEmpty()) text = text + "\n" + String.join("\n", moot);
    return new Applied(text, writes.size(), deletes.size() - moot.size());
  }

  /** The path relative to the harness folder; a model that names it from the session folder is understood. */
  private static String relative(String path) {
    return path.startsWith(PREFIX) ? path.substring(PREFIX.length()) : path;
  }

  /** Why {@code path} may not be edited, or null when it may. */
  private static String check(Path harness, String path, boolean delete) {
    if (path.isEmpty()) return "has an empty path; name a file under context/harness/";
    if (path.indexOf('\0') >= 0) return "holds a NUL character";
    if (path.indexOf('\\') >= 0) return "uses a backslash; separate folders with '/'";
    if (path.startsWith("/") || path.startsWith("~") || path.matches("^[A-Za-z]:.*")) {
      return "is absolute; give a path relative to context/harness/";
    }
    String[] parts = path.split("/", -1);
    for (String part : parts) {
      if (part.equals("..")) return "climbs out with '..'; edit only files under context/harness/";
      if (part.isEmpty() || part.equals(".")) return "has an empty or '.' folder name";
    }
    Path target = harness.resolve(path).normalize();
    if (!target.startsWith(harness.normalize())) return "resolves outside context/harness/";
    if (Files.isSymbolicLink(harness) || Files.isSymbolicLink(harness.getParent())) {
      return "is under context/harness/, and context/ or context/harness/ is a symbolic link; nothing is edited";
    }
    Path at = harness;
    for (int i = 0; i < parts.length; i++) {
      at = at.resolve(parts[i]);
      if (Files.isSymbolicLink(at)) {
        return (i == parts.length - 1 ? "is" : "passes through") + " a symbolic link ("
            + String.join("/", Arrays.copyOf(parts, i + 1)) + "); edit real files only";
      }
      boolean last = i == parts.length - 1;
      if (!last && Files.exists(at, LinkOption.NOFOLLOW_LINKS) && !Files.isDirectory(at, LinkOption.NOFOLLOW_LINKS)) {
        return "goes through " + String.join("/", Arrays.copyOf(parts, i + 1)) + ", which is a file";
      }
      if (last && Files.isDirectory(at, LinkOption.NOFOLLOW_LINKS)) {
        return delete ? "is a folder; delete the files in it one by one" : "is a folder; a <file> block writes a file";
      }
      if (last && Files.exists(at, LinkOption.NOFOLLOW_LINKS) && !Files.isRegularFile(at, LinkOption.NOFOLLOW_LINKS)) {
        return "is not a regular file";
      }
    }
    return null;
  }

  /** A path as a refusal quotes it: on one line, clipped. */
  private static String describe(String path) {
    String p = path.replaceAll("\\p{Cntrl}", "?");
    return "path \"" + (p.length() > 200 ? p.substring(0, 200) + "…" : p) + "\"";
  }

  /** Removes folders a delete left empty, up to (not including) the harness folder. */
  private static void pruneEmptyParents(Path harness, Path dir) throws IOException {
    for (Path d = dir; d != null && !d.equals(harness) && d.startsWith(harness); d = d.getParent()) {
      try {
        Files.delete(d);
      } catch (DirectoryNotEmptyException e) {
        return;
      }
    }
  }
}
