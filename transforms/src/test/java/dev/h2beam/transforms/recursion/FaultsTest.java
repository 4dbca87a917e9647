package dev.h2beam.transforms.recursion;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * dogF #7: {@code --inject=kind@task/mode} takes the mode as {@code --modes} spells it or as its token, and an entry
 * that could never fire (an unknown mode, a task or mode the run does not have) is refused instead of silently ignored.
 */
class FaultsTest {

  @Test
  void aModeNameAndItsTokenInjectTheSameFault() {
    Faults named = Faults.parse("ledger-duplicate@ledger-1/gated, crash-once@dom/t-2/Parallel");
    assertTrue(named.has("ledger-duplicate", "ledger-1", "gat"));
    assertTrue(named.has("crash-once", "dom/t-2", "agg"));
    assertFalse(named.has("crash-once", "dom/t-2", "seq"));
    assertEquals("ledger-duplicate@ledger-1/gat,crash-once@dom/t-2/agg", named.toString());
    assertTrue(Faults.parse("ledger-duplicate@ledger-1/seq").has("ledger-duplicate", "ledger-1", "seq"));
  }

  @Test
  void anUnknownModeIsRefused() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> Faults.parse("crash-once@ledger-1/gatd"));
    assertEquals("--inject entry 'crash-once@ledger-1/gatd': 'gatd' is not a mode; use parallel, sequential or gated"
        + " (or agg, seq, gat)", e.getMessage());
  }

  @Test
  void aTaskOrModeOutsideTheRunIsRefused() {
    Faults f = Faults.parse("crash-once@ledger-3/sequential");
    f.requireIn(List.of("ledger-1", "ledger-3"), List.of("agg", "seq"));
    IllegalArgumentException task = assertThrows(IllegalArgumentException.class,
        () -> f.requireIn(List.of("a", "b", "c", "d", "e", "f", "g"), List.of("seq")));
    assertEquals("--inject entry 'crash-once@ledger-3/sequential' names task 'ledger-3', which this run does not"
        + " have; its tasks: [a, b, c, d, e] and 2 more (see --dryRun=true)", task.getMessage());
    IllegalArgumentException mode = assertThrows(IllegalArgumentException.class,
        () -> f.requireIn(List.of("ledger-3"), List.of("agg", "gat")));
    assertEquals("--inject entry 'crash-once@ledger-3/sequential' names mode sequential, which this run does not"
        + " run; add it to --modes", mode.getMessage());
  }
}
