package dev.h2beam.transforms.gated;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/** One file of a harness: its path relative to the harness root and its text. */
public record TreeEntry(String path, String text) {
  public TreeEntry {
    Objects.requireNonNull(path, "path");
    Objects.requireNonNull(text, "text");
  }

  /** The entries of a tree, in its order. */
  public static List<TreeEntry> of(Map<String, String> tree) {
    List<TreeEntry> out = new ArrayList<>();
    for (Map.Entry<String, String> e : tree.entrySet()) out.add(new TreeEntry(e.getKey(), e.getValue()));
    return out;
  }

  /** The tree the entries spell, in their order. */
  public static LinkedHashMap<String, String> tree(List<TreeEntry> entries) {
    LinkedHashMap<String, String> out = new LinkedHashMap<>();
    for (TreeEntry e : entries) out.put(e.path(), e.text());
    return out;
  }
}
