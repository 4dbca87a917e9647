package dev.h2beam.pipelines.files;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.h2beam.adapters.files.Json;
import java.io.IOException;
import org.junit.jupiter.api.Test;

/** The least each file must hold; every refusal names the field and what was found there. */
class FileShapesTest {
  static final String OK_SELECTION = "{\"ok\": true, \"mode\": \"agg\", \"k\": 2, \"chosen_label\": \"agg1\","
      + " \"chosen_run_dir\": \"/x/agg1\"}";

  static String summaryRefusal(String json) {
    return assertThrows(IOException.class, () -> FileShapes.summary(Json.readTree(json))).getMessage()
        .replace("; repair the field or move the file aside", "");
  }

  @Test
  void aValidSummaryOfEitherWriterPasses() throws Exception {
    FileShapes.summary(Json.readTree("{\"task_id\": \"t\", \"selections\": {\"agg\": " + OK_SELECTION + "}}"));
    FileShapes.summary(Json.readTree("{\"task_id\": \"t\", \"k\": 1, \"status\": \"base-failed\", \"base\": [],"
        + " \"modes\": {}, \"selections\": {}, \"errors\": [\"no base rollout produced anything\"]}"));
    FileShapes.summary(Json.readTree("{\"task_id\": \"t\", \"k\": 1, \"arms\": {\"agg\": {\"ok\": false, \"error\":"
        + " \"E: x\", \"traceback\": \"...\"}}, \"selections\": {\"agg\": {\"arm\": \"parallel\", \"ok\": false,"
        + " \"usd\": \"0.5\"}}}"));
  }

  @Test
  void anEmptyObjectOrOneWithoutSelectionsIsRefused() {
    assertEquals("task_id is missing", summaryRefusal("{}"));
    assertEquals("the summary must be a JSON object, found [] (a list)", summaryRefusal("[]"));
    assertEquals("selections is missing: a summary records each mode's selection there",
        summaryRefusal("{\"task_id\": \"t\", \"k\": 1}"));
    assertEquals("task_id must be a string, found 7 (a number)", summaryRefusal("{\"task_id\": 7, \"selections\": {}}"));
  }

  @Test
  void aSelectionWithValuesOfTheWrongTypeIsRefusedNamingTheField() {
    assertEquals("selections.agg.ok must be true or false, found \"yes\" (a string)",
        summaryRefusal("{\"task_id\": \"t\", \"k\": 1, \"selections\": {\"agg\": {\"ok\": \"yes\"}}}"));
    assertEquals("selections.seq.k must be a whole number >= 1, found \"2\" (a string)",
        summaryRefusal("{\"task_id\": \"t\", \"selections\": {\"seq\": {\"ok\": false, \"k\": \"2\"}}}"));
    assertEquals("selections.agg.k is missing, and the summary has no k either",
        summaryRefusal("{\"task_id\": \"t\", \"selections\": {\"agg\": {\"ok\": false}}}"));
    assertEquals("selections.agg.chosen_run_dir is missing", summaryRefusal("{\"task_id\": \"t\", \"selections\":"
        + " {\"agg\": " + OK_SELECTION.replace(", \"chosen_run_dir\": \"/x/agg1\"", "") + "}}"));
    assertEquals("selections.agg.chosen_run_dir must be a string, found [\"/x\"] (a list)",
        summaryRefusal("{\"task_id\": \"t\", \"selections\": {\"agg\": "
            + OK_SELECTION.replace("\"/x/agg1\"", "[\"/x\"]") + "}}"));
    assertEquals("selections.agg must be a JSON object, found true (a boolean)",
        summaryRefusal("{\"task_id\": \"t\", \"k\": 1, \"selections\": {\"agg\": true}}"));
  }

  @Test
  void modeRecordsAndBaseRolloutsAreCheckedToo() {
    assertEquals("modes.agg.stages[1].usd must be a number, found {} (an object)", summaryRefusal("{\"task_id\": \"t\","
        + " \"k\": 1, \"selections\": {}, \"modes\": {\"agg\": {\"stages\": [{\"usd\": 1}, {\"usd\": {}}]}}}"));
    assertEquals("base[0].run_dir must be a string, found 3 (a number)", summaryRefusal("{\"task_id\": \"t\", \"k\": 1,"
        + " \"selections\": {}, \"base\": [{\"run_dir\": 3}]}"));
  }

  /** The gated mode's gate: its steps a list, and method_failed (absent before h2beam counted it) a count of them. */
  @Test
  void theGatedModesMethodFailuresAreACountOfItsSteps() throws Exception {
    String head = "{\"task_id\": \"t\", \"k\": 1, \"selections\": {}, \"modes\": {\"gat\": {\"gate\": ";
    FileShapes.summary(Json.readTree(head + "{\"steps\": [{}, {}], \"method_failed\": 2}}}}"));
    FileShapes.summary(Json.readTree(head + "{\"steps\": [], \"final_harness\": \"base\"}}}}"));
    assertEquals("modes.gat.gate.method_failed must be a whole number from 0 up to the 2 steps, found 3 (a number)",
        summaryRefusal(head + "{\"steps\": [{}, {}], \"method_failed\": 3}}}}"));
    assertEquals("modes.gat.gate.method_failed must be a whole number from 0 up to the 0 steps, found \"1\" (a"
        + " string)", summaryRefusal(head + "{\"method_failed\": \"1\"}}}}"));
    assertEquals("modes.gat.gate.steps must be a list, found 6 (a number)", summaryRefusal(head + "{\"steps\": 6}}}}"));
  }

  /**
   * A base-failed task's dead bases carry what they cost ({@code cost_usd}, an amount as a usd is) and
   * {@code cost_known} when that is not all of it: they pass in that shape, and another is refused.
   */
  @Test
  void whatADeadBaseCostIsCheckedToo() throws Exception {
    String head = "{\"task_id\": \"t\", \"k\": 2, \"status\": \"base-failed\", \"modes\": {}, \"selections\": {}, ";
    FileShapes.summary(Json.readTree(head + "\"base\": [{\"label\": \"base1\", \"error\": \"boom\", \"cost_usd\":"
        + " 0.25}, {\"label\": \"base2\", \"cost_usd\": \"0\", \"cost_known\": false}, {\"cost_usd\": null}]}"));
    assertEquals("base[1].cost_usd must be a number, found \"free\" (a string)", summaryRefusal(head
        + "\"base\": [{\"cost_usd\": 0.25}, {\"cost_usd\": \"free\"}]}"));
    assertEquals("base[0].cost_known must be true or false, found \"no\" (a string)", summaryRefusal(head
        + "\"base\": [{\"cost_usd\": 0, \"cost_known\": \"no\"}]}"));
    // and their tokens, as a ledger's are
    FileShapes.summary(Json.readTree(head + "\"base\": [{\"cost_usd\": 0, \"tokens\": {\"input\": 40, \"output\": 2},"
        + " \"tokens_known\": false}, {\"cost_usd\": 0, \"tokens\": null}]}"));
    assertEquals("base[1].tokens.output must be a whole number from 0 up, found -2 (a number)", summaryRefusal(head
        + "\"base\": [{\"cost_usd\": 0}, {\"cost_usd\": 0, \"tokens\": {\"input\": 4, \"output\": -2}}]}"));
    assertEquals("base[0].tokens_known must be true or false, found 1 (a number)", summaryRefusal(head
        + "\"base\": [{\"cost_usd\": 0, \"tokens_known\": 1}]}"));
  }

  /**
   * The marks of costs not known pass in their shape (a boolean {@code usd_known}, both lists of labels in a
   * ledger's {@code cost_unknown}); in another shape they could not say which costs a sum leaves out: refused.
   */
  @Test
  void marksOfCostsNotKnownAreCheckedToo() throws Exception {
    String head = "{\"task_id\": \"t\", \"k\": 1, ";
    FileShapes.summary(Json.readTree(head + "\"selections\": {\"agg\": {\"ok\": false, \"usd\": 0.1,"
        + " \"usd_known\": false}}, \"modes\": {\"agg\": {\"stages\": [{\"usd\": 0, \"usd_known\": false}, {\"usd\":"
        + " 1}], \"ledger\": {\"rollout_usd\": 0.5, \"cost_unknown\": {\"rollouts\": [\"base1\"], \"sessions\":"
        + " []}}}}}"));
    FileShapes.summary(Json.readTree(head + "\"selections\": {}, \"modes\": {\"agg\": {\"ledger\":"
        + " {\"cost_unknown\": null}}}}"));
    assertEquals("selections.agg.usd_known must be true or false, found \"no\" (a string)", summaryRefusal(head
        + "\"selections\": {\"agg\": {\"ok\": false, \"usd_known\": \"no\"}}}"));
    assertEquals("modes.agg.stages[0].usd_known must be true or false, found 0 (a number)", summaryRefusal(head
        + "\"selections\": {}, \"modes\": {\"agg\": {\"stages\": [{\"usd\": 1, \"usd_known\": 0}]}}}"));
    assertEquals("modes.agg.ledger.cost_unknown.sessions is missing", summaryRefusal(head + "\"selections\": {},"
        + " \"modes\": {\"agg\": {\"ledger\": {\"cost_unknown\": {\"rollouts\": []}}}}}"));
    assertEquals("modes.agg.ledger.cost_unknown.rollouts must be a list, found \"base1\" (a string)",
        summaryRefusal(head + "\"selections\": {}, \"modes\": {\"agg\": {\"ledger\": {\"cost_unknown\":"
            + " {\"rollouts\": \"base1\", \"sessions\": []}}}}}"));
    assertEquals("modes.agg.ledger.cost_unknown.sessions must list labels, found 3 (a number)",
        summaryRefusal(head + "\"selections\": {}, \"modes\": {\"agg\": {\"ledger\": {\"cost_unknown\":"
            + " {\"rollouts\": [], \"sessions\": [3]}}}}}"));
    assertEquals("modes.agg.ledger.cost_unknown must be a JSON object, found true (a boolean)",
        summaryRefusal(head + "\"selections\": {}, \"modes\": {\"agg\": {\"ledger\": {\"cost_unknown\":"
            + " true}}}}"));
  }

  /**
   * h2beam's token counts pass in their shape (a ledger's and a selection's {@code tokens}, two whole numbers from 0
   * up; a ledger's {@code tokens_unknown} as its {@code cost_unknown}; a selection's boolean {@code tokens_known}), and
   * files without them (harness2's) as before; in another shape a count is no count, and a mark could not say which
   * counts a sum leaves out: refused, naming the field.
   */
  @Test
  void tokenCountsAndTheirMarksAreCheckedToo() throws Exception {
    String head = "{\"task_id\": \"t\", \"k\": 1, ";
    FileShapes.summary(Json.readTree(head + "\"selections\": {\"agg\": {\"ok\": false, \"usd\": 0.1, \"tokens\":"
        + " {\"input\": 3, \"output\": 0}, \"tokens_known\": false}}, \"modes\": {\"agg\": {\"ledger\":"
        + " {\"rollout_usd\": 0.5, \"tokens\": {\"input\": 9007199254740993, \"output\": 12}, \"tokens_unknown\":"
        + " {\"rollouts\": [\"base1\"], \"sessions\": []}}}}}"));
    FileShapes.summary(Json.readTree(head + "\"selections\": {\"agg\": {\"ok\": false, \"tokens\": null}},"
        + " \"modes\": {\"agg\": {\"ledger\": {\"tokens\": null, \"tokens_unknown\": null}}}}"));
    String ledger = head + "\"selections\": {}, \"modes\": {\"agg\": {\"ledger\": {\"rollout_usd\": 0.5, ";
    assertEquals("modes.agg.ledger.tokens.input must be a whole number from 0 up, found -1 (a number)",
        summaryRefusal(ledger + "\"tokens\": {\"input\": -1, \"output\": 2}}}}}"));
    assertEquals("modes.agg.ledger.tokens.output must be a whole number from 0 up, found 2.5 (a number)",
        summaryRefusal(ledger + "\"tokens\": {\"input\": 1, \"output\": 2.5}}}}}"));
    assertEquals("modes.agg.ledger.tokens.input must be a whole number from 0 up, found \"12\" (a string)",
        summaryRefusal(ledger + "\"tokens\": {\"input\": \"12\", \"output\": 2}}}}}"));
    assertEquals("modes.agg.ledger.tokens.output is missing",
        summaryRefusal(ledger + "\"tokens\": {\"input\": 1}}}}}"));
    assertEquals("modes.agg.ledger.tokens must be a JSON object, found [1,2] (a list)",
        summaryRefusal(ledger + "\"tokens\": [1, 2]}}}}"));
    assertEquals("modes.agg.ledger.tokens_unknown.sessions is missing",
        summaryRefusal(ledger + "\"tokens_unknown\": {\"rollouts\": []}}}}}"));
    assertEquals("modes.agg.ledger.tokens_unknown.rollouts must be a list, found \"base1\" (a string)",
        summaryRefusal(ledger + "\"tokens_unknown\": {\"rollouts\": \"base1\", \"sessions\": []}}}}}"));
    assertEquals("modes.agg.ledger.tokens_unknown.sessions must list labels, found 3 (a number)",
        summaryRefusal(ledger + "\"tokens_unknown\": {\"rollouts\": [], \"sessions\": [3]}}}}}"));
    assertEquals("modes.agg.ledger.tokens_unknown must be a JSON object, found true (a boolean)",
        summaryRefusal(ledger + "\"tokens_unknown\": true}}}}"));
    // a ledger's own retries and the sessions whose attempts are not known
    FileShapes.summary(Json.readTree(ledger + "\"session_retries\": 2, \"attempts_unknown\": [\"g1\"]}}}}"));
    assertEquals("modes.agg.ledger.session_retries must be a whole number from 0 up, found -1 (a number)",
        summaryRefusal(ledger + "\"session_retries\": -1}}}}"));
    assertEquals("modes.agg.ledger.attempts_unknown must list labels, found 1 (a number)",
        summaryRefusal(ledger + "\"attempts_unknown\": [1]}}}}"));
    String selection = head + "\"selections\": {\"agg\": {\"ok\": false, ";
    assertEquals("selections.agg.tokens.input must be a whole number from 0 up, found -3 (a number)",
        summaryRefusal(selection + "\"tokens\": {\"input\": -3, \"output\": 4}}}}"));
    assertEquals("selections.agg.tokens.output must be a whole number from 0 up, found 0.5 (a number)",
        summaryRefusal(selection + "\"tokens\": {\"input\": 3, \"output\": 0.5}}}}"));
    assertEquals("selections.agg.tokens must be a JSON object, found 7 (a number)",
        summaryRefusal(selection + "\"tokens\": 7}}}"));
    assertEquals("selections.agg.tokens_known must be true or false, found \"no\" (a string)",
        summaryRefusal(selection + "\"tokens\": {\"input\": 3, \"output\": 4}, \"tokens_known\": \"no\"}}}"));
  }

  @Test
  void aJudgedRowNeedsItsTaskAndModeAndTypedScores() {
    assertEquals("row 1 of judged.json: mode is missing; repair the field or move the file aside",
        assertThrows(IOException.class, () -> FileShapes.judged(Json.readTree("[{\"task_id\": \"a\", \"mode\":"
            + " \"agg\"}, {\"task_id\": \"b\"}]"))).getMessage());
    assertEquals("row 0 of judged.json: raw must be an object or null, found \"x\" (a string); repair the field or"
        + " move the file aside", assertThrows(IOException.class, () -> FileShapes.judged(Json.readTree(
            "[{\"task_id\": \"a\", \"arm\": \"agg\", \"raw\": \"x\"}]"))).getMessage());
  }
}
