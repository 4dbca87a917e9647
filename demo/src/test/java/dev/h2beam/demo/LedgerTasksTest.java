package dev.h2beam.demo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class LedgerTasksTest {
  /** Ids zero-padded to the widest number (two digits at least), so their name order is their number order. */
  @Test
  void idsArePaddedToTheWidestNumber() {
    LedgerTasks small = LedgerTasks.synthetic(2, 3);
    assertEquals(List.of("d01-t01", "d01-t02", "d01-t03", "d02-t01", "d02-t02", "d02-t03"), small.ids());
    assertEquals("d01", small.domainOf("d01-t03"));
    LedgerTasks wide = LedgerTasks.synthetic(100, 1000);
    assertEquals("d001-t0001", wide.ids().get(0));
    assertEquals("d100-t1000", wide.ids().get(wide.ids().size() - 1));
    assertEquals(List.copyOf(new java.util.TreeSet<>(wide.ids())), wide.ids());
  }

  /** Each ledger: a header, three to six amounts with two decimals each, at least one negative; the same each time. */
  @Test
  void everyLedgerHasAmountsInCentsWithACredit() {
    LedgerTasks tasks = LedgerTasks.synthetic(8, 5);
    int shortCents = 0;
    for (String id : tasks.ids()) {
      String ledger = tasks.ledger(id);
      assertEquals(ledger, LedgerTasks.synthetic(8, 5).ledger(id));
      String[] lines = ledger.split("\n");
      assertEquals("amount", lines[0]);
      assertTrue(lines.length >= 4 && lines.length <= 7, ledger);
      boolean negative = false;
      for (int i = 1; i < lines.length; i++) {
        assertTrue(lines[i].matches("-?(0|[1-9][0-9]*)\\.[0-9]{2}"), lines[i]);
        negative |= lines[i].startsWith("-");
        if (lines[i].matches(".*\\.0[0-9]")) shortCents++;
      }
      assertTrue(negative, ledger);
    }
    assertTrue(shortCents > 0, "some amount has fewer than ten cents, padded");
    assertEquals("007", LedgerTasks.padded(7, 3));
    assertEquals("1234", LedgerTasks.padded(1234, 2));
  }
}
