package dev.h2beam.pipelines.report;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.h2beam.adapters.model.Tokens;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * The report's lines of each mode's model tokens: the tasks' recorded counts added up per cell, with how many tasks'
 * counts are only partial or not recorded at all beside them (never folded in as 0), and no line at all when no cell
 * counted a token or left one out, so the demo's and harness2's reports stay as they were. The HTML page's table has
 * a column of the same figures on the same condition.
 */
class TokensReportTest {
  private static final String HEAD = "  model tokens per mode (every rollout, bases included, and every improver,"
      + " selector and reflector session):";

  private static TaskSummary.TokenCount cell(Tokens... tasks) {
    TaskSummary.TokenCount c = TaskSummary.TokenCount.NONE;
    for (Tokens t : tasks) c = c.plus(TaskSummary.TokenCount.of(t));
    return c;
  }

  @Test
  void eachCellsCountsAddUpAndWhatTheyLeaveOutIsCountedBeside() {
    Map<ModeK, TaskSummary.TokenCount> byCell = new TreeMap<>(ModeK.BY_K_THEN_MODE);
    byCell.put(new ModeK("seq", 2), cell(new Tokens(100, 10, true), new Tokens(50, 5, false), null));
    byCell.put(new ModeK("agg", 2), cell(new Tokens(1000, 20, true), new Tokens(300, 4, true)));
    byCell.put(new ModeK("agg", 1), cell(Tokens.NONE));
    assertEquals(List.of("", HEAD,
        "    parallel k=1: 0 in, 0 out",
        "    parallel k=2: 1300 in, 24 out",
        "    sequential k=2: 150 in, 15 out; 1 task(s) not all counted (the part counted, not the whole); 1 task(s)"
            + " record none (not counted, not zero)"), Render.tokens(byCell, Render.DeadBaseSpend.NONE));
  }

  @Test
  void theHtmlTableSaysTheSameInItsCell() {
    assertEquals("1300 / 24", HtmlReport.tokenCell(cell(new Tokens(1000, 20, true), new Tokens(300, 4, true))));
    assertEquals("150 / 15 + 1 not all counted + 1 not recorded",
        HtmlReport.tokenCell(cell(new Tokens(100, 10, true), new Tokens(50, 5, false), null)));
    assertEquals("-", HtmlReport.tokenCell(null), "a cell with no task of the mode");
  }

  @Test
  void noLineWhenNoCellCountedATokenOrLeftOneOut() {
    // the demo's scripted work spends a known nothing; harness2's summaries record no tokens
    assertEquals(List.of(), Render.tokens(Map.of(new ModeK("agg", 2), cell(Tokens.NONE, Tokens.NONE),
        new ModeK("seq", 2), cell(null, null)), Render.DeadBaseSpend.NONE));
    assertEquals(List.of(), Render.tokens(Map.of(), Render.DeadBaseSpend.NONE));
    // a count left out is said even when nothing was counted: an unknown is never a quiet 0
    assertEquals(List.of("", HEAD, "    parallel k=2: 0 in, 0 out; 1 task(s) not all counted (the part counted, not"
        + " the whole)"), Render.tokens(Map.of(new ModeK("agg", 2), cell(Tokens.UNKNOWN)),
        Render.DeadBaseSpend.NONE));
  }

  /**
   * The dead bases of tasks whose every base failed are in no mode's ledger: their tokens get a line of their own,
   * which alone is enough for the block (a sweep whose every task died at its bases still spent them).
   */
  @Test
  void theDeadBasesOfTasksWhoseEveryBaseFailedHaveTheirOwnLine() {
    Render.DeadBaseSpend dead = Render.DeadBaseSpend.NONE
        .plus(new TaskSummary.DeadBases(0.0, 0, cell(new Tokens(40, 2, true), new Tokens(7, 0, false))))
        .plus(new TaskSummary.DeadBases(0.0, 0, cell((Tokens) null)));
    assertEquals(List.of("", HEAD, "    parallel k=2: 0 in, 0 out",
        "    base rollouts of 2 task(s) whose every base failed (in no mode's ledger): 47 in, 2 out; 1 rollout(s)"
            + " not all counted (the part counted, not the whole); 1 rollout(s) record none (not counted, not zero)"),
        Render.tokens(Map.of(new ModeK("agg", 2), cell(Tokens.NONE)), dead));
    // dead bases that spent a known nothing add no line
    assertEquals(List.of(), Render.tokens(Map.of(new ModeK("agg", 2), cell(Tokens.NONE)), Render.DeadBaseSpend.NONE
        .plus(new TaskSummary.DeadBases(0.0, 0, cell(Tokens.NONE)))));
  }
}
