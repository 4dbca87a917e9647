package dev.h2beam.transforms.tree;

import java.util.LinkedHashMap;
import java.util.Map;

/** Builds small harness trees for tests. */
final class TestTrees {
  private TestTrees() {}

  /** A tree from alternating paths and texts, in that order. */
  static Map<String, String> tree(String... relsAndTexts) {
    Map<String, String> t = new LinkedHashMap<>();
    for (int i = 0; i < relsAndTexts.length; i += 2) t.put(relsAndTexts[i], relsAndTexts[i + 1]);
    return t;
  }
}
