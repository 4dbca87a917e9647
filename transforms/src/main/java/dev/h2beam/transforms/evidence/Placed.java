package dev.h2beam.transforms.evidence;

import dev.h2beam.adapters.files.PathOrder;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * What an evidence folder being built was given, file by file: each text with its bytes, each linked file by name
 * only. The folder was made empty for the build and nothing else writes in it, so this is all it holds: its {@link
 * HeldTree} needs neither a walk of the folder nor a read of the texts just written, only of the linked files. Listing
 * and reading every stage's folder back took a sixth of building its evidence (BENCHMARKS.md, issue 11).
 */
final class Placed {
  private final Path root;
  /** Relative path to the text's bytes, or to null for a linked file (read from disk when held). */
  private final Map<String, byte[]> files = new HashMap<>();
  /** The folder the last text went into, known to exist. */
  private Path made;

  Placed(Path root) {
    this.root = root;
  }

  /** Writes {@code text} at {@code file} (under the root) as {@link SharedText} does, and notes its bytes. */
  void text(Path file, String text) throws IOException {
    byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
    String rel = PathOrder.relative(root, file);
    Path folder = file.getParent();
    if (!folder.equals(made)) {
      Files.createDirectories(folder);
      made = folder;
    }
    // a text placed before at the same name (a rollout's failed rendering written over) is a file to replace
    SharedText.write(file, bytes, !files.containsKey(rel));
    files.put(rel, bytes);
  }

  /**
   * Notes the {@code files} (relative to {@code to}, a folder under the root) as linked or copied there, so read from
   * disk when held, less the {@code .pyc} files {@link FileTrees#link} and {@link FileTrees#copy} leave out.
   */
  void linked(Path to, List<String> names) {
    String prefix = PathOrder.relative(root, to) + "/";
    for (String rel : names) {
      if (!rel.endsWith(".pyc")) files.put(prefix + rel, null);
    }
  }

  /**
   * The folder as {@link HeldTree#read} would read it after {@link PathOrder#list}: the same files in the same order
   * (a file below a {@code __pycache__} folder is no file there either) and the same bytes and modes.
   */
  HeldTree held() {
    List<String> names = new ArrayList<>(files.size());
    for (String rel : files.keySet()) if (!PathOrder.inCache(rel)) names.add(rel);
    names.sort(PathOrder.RELATIVE);
    return HeldTree.written(root, new PathOrder.Listing(names, List.of()), files);
  }
}
