package dev.h2beam.transforms.evidence;

import dev.h2beam.adapters.files.PathOrder;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What an evidence folder being built was given, file by file: each text with its bytes, each linked file by name
 * only. The folder was made empty for the build and nothing else writes in it, so this is all it holds: its {@link
 * HeldTree} needs neither a walk of the folder nor a read of the texts just written, only of the linked files whose
 * bytes are not known (a harness this task wrote is known: {@link #linked(Path, List, Map)}). Listing and reading
 * every stage's folder back took a sixth of building its evidence (BENCHMARKS.md, issue 11).
 */
final class Placed {
  private final Path root;
  /**
   * Relative path to the text's bytes, or to null for a linked file whose bytes are not known here (read from disk
   * when held).
   */
  private final Map<String, byte[]> files = new HashMap<>();
  /** The files shown from a library's memory and not placed in the folder, by relative path. */
  private final Map<String, HeldTree.From> shown = new HashMap<>();
  /** Their paths in the library's order, which is path order: merged with the placed files', not sorted again. */
  private final List<String> shownInOrder = new ArrayList<>();
  /** The folders known to exist: the root, and every folder made in it since. */
  private final Set<Path> made = new HashSet<>();

  /** For the folder {@code root}, which exists and is empty. */
  Placed(Path root) {
    this.root = root;
    made.add(root);
  }

  /**
   * The folders known to exist under the root, for the files linked there ({@link FileTrees#link(Path, Path, List,
   * Set)}), which adds the ones it makes.
   */
  Set<Path> made() {
    return made;
  }

  /** Writes {@code text} at {@code file} (under the root) as {@link SharedText} does, and notes its bytes. */
  void text(Path file, String text) throws IOException {
    bytes(file, text.getBytes(StandardCharsets.UTF_8));
  }

  /** The same with the bytes given. */
  void bytes(Path file, byte[] bytes) throws IOException {
    String rel = PathOrder.relative(root, file);
    FileTrees.makeFolder(file.getParent(), made);
    // a text placed before at the same name (a rollout's failed rendering written over) is a file to replace
    SharedText.write(file, bytes, !files.containsKey(rel));
    files.put(rel, bytes);
  }

  /**
   * Notes the {@code files} (relative to {@code to}, a folder under the root) as linked or copied there, so read from
   * disk when held, less the {@code .pyc} files {@link FileTrees#link} and {@link FileTrees#copy} leave out.
   */
  void linked(Path to, List<String> names) {
    linked(to, names, Map.of());
  }

  /**
   * The same where the exact text of some of them is known ({@code texts}, by the same relative path: a harness this
   * task wrote, {@link dev.h2beam.transforms.tree.TreeIO#writtenTexts}): those are held from it, not read back.
   */
  void linked(Path to, List<String> names, Map<String, String> texts) {
    String prefix = PathOrder.relative(root, to) + "/";
    for (String rel : names) {
      if (rel.endsWith(".pyc")) continue;
      String text = texts.get(rel);
      files.put(prefix + rel, text == null ? null : text.getBytes(StandardCharsets.UTF_8));
    }
  }

  /**
   * Notes the library's files as shown at {@code to} (a folder under the root) without placing them there, less its
   * index (placed there with {@link #bytes}) and the {@code .pyc} files a link would leave out.
   */
  void shown(Path to, ShownLibrary library) {
    String prefix = PathOrder.relative(root, to) + "/";
    for (String rel : library.files()) {
      // its listing has no file below a __pycache__ folder already
      if (rel.endsWith(".pyc") || rel.equals(ShownLibrary.INDEX)) continue;
      shown.put(prefix + rel, library.file(rel));
      shownInOrder.add(prefix + rel);
    }
  }

  /**
   * The folder as {@link HeldTree#read} would read it after {@link PathOrder#list}: the same files in the same order
   * (a file below a {@code __pycache__} folder is no file there either) and the same bytes and modes; and with them
   * the library's files shown, as its {@link ShownLibrary} holds them.
   */
  HeldTree held() {
    List<String> own = new ArrayList<>(files.size());
    for (String rel : files.keySet()) if (!PathOrder.inCache(rel)) own.add(rel);
    own.sort(PathOrder.RELATIVE);
    List<String> names = own;
    if (!shownInOrder.isEmpty()) {
      names = new ArrayList<>(own.size() + shownInOrder.size());
      int a = 0;
      int b = 0;
      while (a < own.size() || b < shownInOrder.size()) {
        boolean fromOwn = b == shownInOrder.size()
            || a < own.size() && PathOrder.RELATIVE.compare(own.get(a), shownInOrder.get(b)) < 0;
        names.add(fromOwn ? own.get(a++) : shownInOrder.get(b++));
      }
    }
    return HeldTree.written(root, new PathOrder.Listing(names, List.of()), files, shown);
  }
}
