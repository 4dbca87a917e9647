package dev.h2beam.transforms.tree;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class DiversityTest {
  private static Map<String, Object> census(Object... namesAndTrees) {
    Map<String, Map<String, String>> trees = new LinkedHashMap<>();
    for (int i = 0; i < namesAndTrees.length; i += 2) {
      @SuppressWarnings("unchecked")
      Map<String, String> t = (Map<String, String>) namesAndTrees[i + 1];
      trees.put((String) namesAndTrees[i], t);
    }
    return Diversity.of(trees);
  }

  @Test
  void identicalTreesAreOneDistinctTreeWithJaccardOne() {
    Map<String, String> t = Map.of("systemprompt.md", "a\nb\n", "scripts/x.py", "print(1)\n");
    assertEquals(Map.of("n", 3, "n_distinct", 1, "mean_line_jaccard", 1.0),
        census("c", t, "a", Map.copyOf(t), "b", new LinkedHashMap<>(t)));
  }

  @Test
  void keysComeInSpecOrder() {
    assertEquals(List.of("n", "n_distinct", "mean_line_jaccard"), List.copyOf(census("a", Map.of()).keySet()));
  }

  @Test
  void fewerThanTwoTreesAreTriviallyUniform() {
    assertEquals(Map.of("n", 1, "n_distinct", 1, "mean_line_jaccard", 1.0), census("a", Map.of("f", "x")));
    assertEquals(Map.of("n", 0, "n_distinct", 0, "mean_line_jaccard", 1.0), census());
  }

  @Test
  void meanLineJaccardMatchesAHandComputedCase() {
    // Line sets: a = {f:x, f:y}, b = {f:x, f:z}, c = {f:x, f:y, g:w}.
    // Pairs: a-b 1/3, a-c 2/3, b-c 1/4; mean 1.25/3 = 0.41666... -> 0.4167.
    Map<String, Object> d = census("a", Map.of("f", "x\ny\n"), "b", Map.of("f", "x\r\n\nz"),
        "c", Map.of("f", "x\ny", "g", "  \nw\n"));
    assertEquals(Map.of("n", 3, "n_distinct", 3, "mean_line_jaccard", 0.4167), d);
  }

  @Test
  void twoTreesWithoutNonBlankLinesCountAsIdenticalLines() {
    assertEquals(Map.of("n", 2, "n_distinct", 2, "mean_line_jaccard", 1.0),
        census("a", Map.of(), "b", Map.of("guardrails.md", " \n")));
  }
}
