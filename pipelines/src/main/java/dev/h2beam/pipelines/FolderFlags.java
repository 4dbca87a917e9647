package dev.h2beam.pipelines;

import dev.h2beam.adapters.model.Namespace;
import dev.h2beam.pipelines.sweep.Sweep;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.beam.sdk.options.PipelineOptions;

/**
 * The checks every folder flag of every command meets before anything is read or written: a value that would
 * quietly mean some other folder than the user meant is refused, naming the flag and what to write instead. An
 * unset flag (null) is left to the command's default.
 *
 * <p>Refused: an empty or blank value (it resolves to the current folder: {@code --output=} ran the whole demo
 * there), white space around the value, a leading {@code ~} or a {@code $VARIABLE} the shell did not expand (each
 * would create a folder literally named so), the value of a key h2beam holds (its records would keep it), and, for
 * a folder h2beam writes into, a relative value that is the current folder or one of its parents ({@code .},
 * {@code ..}). On a runner whose workers are other processes a relative folder is refused too
 * ({@link Sweep#requireAbsoluteOnCluster}). A folder the namespaces a command writes go under is refused when its path
 * holds a character {@code --namespaces} reads as glob syntax or as the separator of its list
 * ({@link #namespacesUnder}).
 */
public final class FolderFlags {
  private FolderFlags() {}

  private static final Pattern VARIABLE = Pattern.compile("\\$(\\{[^}]*}?|[A-Za-z_][A-Za-z0-9_]*)");

  /**
   * A folder h2beam writes into (an output, a runs root, a library root, a benchmark root it populates).
   *
   * @param example a sensible value, shown in the refusal
   */
  public static void written(PipelineOptions o, String flag, String value, String example) {
    if (value == null) return;
    common(flag, value, example);
    Path p = Paths.get(value);
    Path cwd = Paths.get("").toAbsolutePath().normalize();
    Path abs = p.toAbsolutePath().normalize();
    if (!p.isAbsolute() && cwd.startsWith(abs)) {
      throw new UsageError(flag + "=" + value + " is " + (abs.equals(cwd) ? "the current folder" : "a parent of the"
          + " current folder") + " (" + abs + "): h2beam would write its folders and files among yours there; give a"
          + " folder of its own, e.g. " + flag + "=" + example);
    }
    Sweep.requireAbsoluteOnCluster(o, flag, value);
  }

  /** What {@code --namespaces} reads as glob syntax ({@code * [ ] { }}) or as the separator of its list. */
  private static final String NAMESPACES_SYNTAX = "*[]{},";
  /** Those characters as a refusal names them. */
  public static final String NAMESPACES_CHARACTERS = "'*', '[', ']', '{', '}', ','";

  /**
   * A folder the namespaces a command writes go under (a sweep's runs root, or the folder its default is in): refused
   * when its path, made absolute, holds a character that {@code --namespaces} reads as glob syntax or as the
   * separator of its list, for the judge and the report could never name those namespaces ({@code ?} matches itself
   * and may stay). A null {@code value} is the flag left out, its default under the current folder. Only for such
   * folders: a report's output or a library root may hold those characters.
   *
   * @param instead what to do instead, the end of the refusal
   */
  public static void namespacesUnder(String flag, String value, String instead) {
    namespacesUnder(flag, value, instead, Paths.get("").toAbsolutePath().normalize());
  }

  /** The same with {@code cwd} as the current folder. */
  static void namespacesUnder(String flag, String value, String instead, Path cwd) {
    String path = value == null ? cwd.toString() : cwd.resolve(value).normalize().toString();
    for (char c : path.toCharArray()) {
      if (NAMESPACES_SYNTAX.indexOf(c) < 0) continue;
      String where = value != null && value.indexOf(c) >= 0 ? flag + "=" + value + " holds '" + c + "'"
          : (value == null ? flag + " is left out, so its default is" : flag + "=" + value + " is") + " under the"
          + " current folder " + cwd + ", whose path holds '" + c + "'";
      throw new UsageError(where + ", which ./h2beam judge and report read in --namespaces as "
          + (c == ',' ? "the separator between folders" : "glob syntax") + ": the namespaces written under it could"
          + " never be judged or reported; " + instead);
    }
  }

  /** The nearest part of {@code dir} (itself or a parent) that exists, or null: where a folder to create would go. */
  public static Path nearestExisting(Path dir) {
    Path existing = dir;
    while (existing != null && !Files.exists(existing)) existing = existing.getParent();
    return existing;
  }

  /**
   * The folders among {@code dirs} and their ancestors that do not exist yet, deepest first: what a command will have
   * made once it has made {@code dirs}, for {@link #removeEmpty}.
   */
  public static List<Path> missing(Collection<Path> dirs) {
    TreeSet<Path> out = new TreeSet<>(Comparator.comparingInt(Path::getNameCount).reversed()
        .thenComparing(Comparator.naturalOrder()));
    for (Path d : dirs) {
      for (Path p = d.toAbsolutePath().normalize(); p != null && !Files.exists(p); p = p.getParent()) out.add(p);
    }
    return List.copyOf(out);
  }

  /**
   * Removes each of {@code made} (deepest first, from {@link #missing}) that is an empty folder: a refused command
   * leaves no trace of itself. A folder with anything in it, another's or its own, is kept.
   */
  public static void removeEmpty(List<Path> made) {
    for (Path p : made) {
      try {
        if (Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS)) Files.delete(p);
      } catch (IOException e) {
        // not empty (or not this user's to remove): kept, as anything h2beam did not make alone
      }
    }
  }

  /** A folder h2beam only reads (a benchmark folder of the user's tasks). */
  public static void read(PipelineOptions o, String flag, String value, String example) {
    if (value == null) return;
    common(flag, value, example);
    Sweep.requireAbsoluteOnCluster(o, flag, value);
  }

  /** A comma list of folders or globs ({@code --namespaces}); white space around each entry is allowed. */
  public static void entries(PipelineOptions o, String flag, String value, String example) {
    if (value == null) return;
    // a list the command needs: there is no default to leave it out for (dogAG B2)
    if (value.isBlank()) common(flag, value, example, false);
    for (String entry : value.split(",")) {
      String e = entry.strip();
      if (e.isEmpty()) continue;
      unexpanded(flag, e);
      Sweep.requireAbsoluteOnCluster(o, flag, e);
    }
  }

  private static void common(String flag, String value, String example) {
    common(flag, value, example, true);
  }

  private static void common(String flag, String value, String example, boolean hasDefault) {
    if (value.isEmpty()) {
      throw new UsageError(flag + "= is empty, which would mean the current folder ("
          + Paths.get("").toAbsolutePath() + "); give the folder, e.g. " + flag + "=" + example
          + (hasDefault ? ", or leave the flag out for its default" : ""));
    }
    if (value.isBlank() || !value.equals(value.strip())) {
      throw new UsageError(flag + "='" + value + "' has white space around the folder name; remove it (a folder"
          + " whose name really starts or ends with a space is not supported)");
    }
    unexpanded(flag, value);
  }

  private static void unexpanded(String flag, String value) {
    java.util.TreeSet<String> found = new java.util.TreeSet<>();
    String shown = dev.h2beam.adapters.config.KeyFree.text(value, found);
    if (!found.isEmpty()) {
      // the folder's name would carry the key into every path h2beam records (summaries, selections, journals)
      throw new UsageError(flag + "=" + shown + " holds the value of $" + String.join(", $", found) + ", a key h2beam"
          + " holds: its folders' names would write the key into the paths every record keeps; choose another"
          + " folder");
    }
    if (value.startsWith("~")) {
      throw new UsageError(flag + "=" + value + " starts with '~', which the shell expands only at the start of a"
          + " word, so it would create a folder named '~'; write the absolute path (or $HOME/..., unquoted)");
    }
    Matcher m = VARIABLE.matcher(value);
    if (m.find()) {
      throw new UsageError(flag + "=" + value + " holds " + m.group() + ", a shell variable that was not expanded"
          + " (was the flag in single quotes?); write the folder's path, or use double quotes");
    }
  }

  /**
   * What to name in {@code --namespaces} instead of {@code dir}, which is no namespace: its namespace when it is a
   * folder inside one (a task's: a glob of its contents matched nothing; dogAG B1), a glob of it when it holds
   * namespaces (a runs root), else what a namespace folder looks like. The judge and the report say the same.
   */
  public static String insteadOfNamespace(Path dir) {
    for (Path up = dir.getParent(); up != null; up = up.getParent()) {
      if (isNamespace(up)) return "it is a folder inside the namespace " + up + ": name that, --namespaces=" + up;
    }
    boolean holds;
    try (java.util.stream.Stream<Path> s = Files.list(dir)) {
      holds = s.anyMatch(p -> Files.isDirectory(p) && isNamespace(p));
    } catch (IOException | java.io.UncheckedIOException e) {
      holds = false;
    }
    return holds ? "it holds namespaces (a runs root): name one, or a glob of them such as '" + dir + "/*'"
        : "name a namespace folder such as runs/demo-oc-agg2, or a glob of them";
  }

  private static boolean isNamespace(Path dir) {
    return dir.getFileName() != null && Namespace.parse(dir.getFileName().toString()).isPresent();
  }
}
