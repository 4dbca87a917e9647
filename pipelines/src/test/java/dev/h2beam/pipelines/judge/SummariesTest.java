package dev.h2beam.pipelines.judge;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.h2beam.adapters.model.Namespace;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

class SummariesTest {

  static String summary(String task) {
    return "{\"task_id\": \"" + task + "\", \"k\": 2, \"selections\": {"
        + "\"agg\": {\"chosen_label\": \"agg2\", \"chosen_run_dir\": \"/x/" + task + "/a\", \"ok\": true},"
        + "\"seq\": {\"chosen_label\": \"c2\", \"chosen_run_dir\": \"/x/" + task + "/s\", \"ok\": true}}}";
  }

  /**
   * The chosen harness's folder is the mode's work folder of the namespace (spec §3.3), whichever namespace the
   * thread read before: namespaces read in turn each keep their own, and a folder whose name spells no namespace has
   * none.
   */
  @Test
  void eachSelectionNamesItsModesHarnessFolderWhateverWasReadBefore() throws Exception {
    Path runs = Path.of("/runs");
    String a = runs.resolve("bench-oc-agg2-s1").toString();
    String b = runs.resolve("bench-oc-agg2-s2").toString();
    String other = runs.resolve("not a namespace").toString();
    for (String ns : List.of(a, b, a, other, b, a)) {
      for (String task : List.of("t 1", "t2")) {
        List<SelectionItem> items = Summaries.selections(ns, "noop", summary(task), List.of("agg", "seq"));
        assertEquals(2, items.size());
        for (SelectionItem s : items) {
          String expected = ns.equals(other) ? ""
              : Namespace.parse(Path.of(ns).getFileName().toString()).orElseThrow().withMode(s.mode())
                  .taskDir(runs, task).resolve("harnesses").resolve(s.label()).toString();
          assertEquals(expected, s.harnessDir(), ns + " " + task + " " + s.mode());
        }
      }
    }
  }
}
