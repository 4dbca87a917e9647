package dev.h2beam.transforms.gated;

import dev.h2beam.transforms.safety.CredentialScreen;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * One edit of one harness file: {@code create} a file that is not there, {@code update} one that is, or
 * {@code remove} it ({@code text} null).
 */
public record Mutation(Op op, String path, String text) {
  public enum Op { CREATE, UPDATE, REMOVE }

  public Mutation {
    Objects.requireNonNull(op, "op");
    Objects.requireNonNull(path, "path");
    if (op == Op.REMOVE ? text != null : text == null) {
      throw new IllegalArgumentException("mutation " + op + " " + path + ": "
          + (op == Op.REMOVE ? "a remove carries no text"
              : "a " + op.name().toLowerCase(Locale.ROOT) + " needs the file's text"));
    }
  }

  public static Mutation create(String path, String text) {
    return new Mutation(Op.CREATE, path, text);
  }

  public static Mutation update(String path, String text) {
    return new Mutation(Op.UPDATE, path, text);
  }

  public static Mutation remove(String path) {
    return new Mutation(Op.REMOVE, path, null);
  }

  /** The mutations that turn {@code from} into {@code to}: removals, updates and creations, each in path order. */
  public static List<Mutation> diff(Map<String, String> from, Map<String, String> to) {
    List<Mutation> out = new ArrayList<>();
    for (String p : new java.util.TreeSet<>(from.keySet())) if (!to.containsKey(p)) out.add(remove(p));
    for (String p : new java.util.TreeSet<>(to.keySet())) {
      if (!from.containsKey(p)) out.add(create(p, to.get(p)));
      else if (!from.get(p).equals(to.get(p))) out.add(update(p, to.get(p)));
    }
    return out;
  }

  /**
   * {@code tree} with every mutation applied in order; a path that does not name a file inside the tree
   * ({@link #pathProblem}), a create of a file that is there, or an update or remove of one that is not, is refused
   * naming it (with any key in the path redacted: the reason reaches the summary and the next proposals). A method is
   * a plug-in: refused here, before anything is written, its path never reaches a rollout's folder.
   */
  public static LinkedHashMap<String, String> apply(Map<String, String> tree, List<Mutation> mutations) {
    LinkedHashMap<String, String> out = new LinkedHashMap<>(tree);
    for (Mutation m : mutations) {
      String named = m.op().name().toLowerCase(Locale.ROOT) + " " + CredentialScreen.redact(m.path());
      String problem = pathProblem(m.path());
      if (problem != null) {
        throw new IllegalArgumentException(named + ": " + problem + "; name a file by its path relative to the"
            + " harness root, folders separated by '/' (e.g. skills/<name>/SKILL.md)");
      }
      boolean there = out.containsKey(m.path());
      switch (m.op()) {
        case CREATE -> {
          if (there) throw new IllegalArgumentException(named + ": the file is already there; update it");
          out.put(m.path(), m.text());
        }
        case UPDATE -> {
          if (!there) throw new IllegalArgumentException(named + ": no such file; create it");
          out.put(m.path(), m.text());
        }
        case REMOVE -> {
          if (!there) throw new IllegalArgumentException(named + ": no such file");
          out.remove(m.path());
        }
      }
    }
    return out;
  }

  /**
   * Why {@code path} does not name a file inside a harness tree, or null when it does: an empty path, a backslash, an
   * absolute path, a {@code ..} segment that escapes the tree, or an empty or {@code .} segment (which would name a
   * file the tree already holds under another key).
   */
  static String pathProblem(String path) {
    if (path.isEmpty()) return "the path is empty";
    if (path.indexOf('\\') >= 0) return "the path holds a backslash";
    if (path.startsWith("/") || path.matches("[A-Za-z]:.*")) return "the path is absolute";
    List<String> segments = List.of(path.split("/", -1));
    if (segments.contains("..")) return "the path escapes the harness tree ('..')";
    if (segments.contains("")) return "the path has an empty segment ('//' or a trailing '/')";
    if (segments.contains(".")) return "the path has a '.' segment";
    return null;
  }

  /** The record form: op and path (the text lives in the candidate's harness folder). */
  public Map<String, Object> toJson() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("op", op.name().toLowerCase(Locale.ROOT));
    m.put("path", path);
    return m;
  }
}
