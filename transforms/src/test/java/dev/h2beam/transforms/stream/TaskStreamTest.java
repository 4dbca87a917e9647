package dev.h2beam.transforms.stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigInteger;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The task stream of spec §8.1: the §19.4 order vectors, grouping, filters, caps and their errors. */
class TaskStreamTest {
  /** The §19.4 task set, in an insertion order that none of the expected orders share. */
  private static LinkedHashMap<String, List<String>> tasks() {
    LinkedHashMap<String, List<String>> tasks = new LinkedHashMap<>();
    tasks.put("zeta", List.of("z1"));
    tasks.put("legal", List.of("a/2", "a/1"));
    tasks.put("accounting", List.of("ledger-2", "ledger-3", "ledger-1"));
    return tasks;
  }

  /** Compares domain order and task order, which {@code Map.equals} would ignore. */
  private static void assertStream(
      List<Map.Entry<String, List<String>>> expected, LinkedHashMap<String, List<String>> actual) {
    assertEquals(expected, List.copyOf(actual.entrySet()));
  }

  @Test
  void unseededWithoutReferenceOrdersByDescendingCountThenName() {
    assertStream(
        List.of(
            Map.entry("accounting", List.of("ledger-1", "ledger-2", "ledger-3")),
            Map.entry("legal", List.of("a/1", "a/2")),
            Map.entry("zeta", List.of("z1"))),
        TaskStream.order(tasks(), null, Optional.empty()));
  }

  @Test
  void seedSevenMatchesPython() {
    assertStream(
        List.of(
            Map.entry("zeta", List.of("z1")),
            Map.entry("legal", List.of("a/1", "a/2")),
            Map.entry("accounting", List.of("ledger-3", "ledger-2", "ledger-1"))),
        TaskStream.order(tasks(), BigInteger.valueOf(7), Optional.empty()));
  }

  @Test
  void seedFortyTwoMatchesPython() {
    assertStream(
        List.of(
            Map.entry("legal", List.of("a/2", "a/1")),
            Map.entry("accounting", List.of("ledger-3", "ledger-1", "ledger-2")),
            Map.entry("zeta", List.of("z1"))),
        TaskStream.order(tasks(), BigInteger.valueOf(42), Optional.empty()));
  }

  /** harness2's --seed is a Python int of any size; the order is the one CPython gives for 2**70 + 5. */
  @Test
  void aSeedWiderThanALongMatchesPython() {
    assertStream(
        List.of(
            Map.entry("legal", List.of("a/1", "a/2")),
            Map.entry("accounting", List.of("ledger-2", "ledger-3", "ledger-1")),
            Map.entry("zeta", List.of("z1"))),
        TaskStream.order(tasks(), new BigInteger("1180591620717411303429"), Optional.empty()));
  }

  @Test
  void seededOrderIgnoresReferenceOrder() {
    assertStream(
        List.copyOf(TaskStream.order(tasks(), BigInteger.valueOf(7), Optional.empty()).entrySet()),
        TaskStream.order(tasks(), BigInteger.valueOf(7), Optional.of(List.of("accounting", "legal", "zeta"))));
  }

  @Test
  void unseededWithReferenceFollowsItAndSkipsDomainsWithoutTasks() {
    assertStream(
        List.of(
            Map.entry("zeta", List.of("z1")),
            Map.entry("accounting", List.of("ledger-1", "ledger-2", "ledger-3")),
            Map.entry("legal", List.of("a/1", "a/2"))),
        TaskStream.order(tasks(), null, Optional.of(List.of("zeta", "empty", "accounting", "legal"))));
  }

  @Test
  void domainMissingFromReferenceOrderIsAnErrorNamingIt() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> TaskStream.order(tasks(), null, Optional.of(List.of("accounting", "zeta"))));
    assertTrue(e.getMessage().contains("[legal]"), e.getMessage());
  }

  @Test
  void groupKeepsAdapterOrderWithinEachDomain() {
    LinkedHashMap<String, List<String>> groups =
        TaskStream.group(
            List.of("ledger-2", "a/2", "ledger-1", "a/1"), t -> t.startsWith("a/") ? "legal" : "accounting");
    assertStream(
        List.of(Map.entry("accounting", List.of("ledger-2", "ledger-1")), Map.entry("legal", List.of("a/2", "a/1"))),
        groups);
  }

  /** Any benchmark's tasks that would share a run folder, or one task listed twice, are refused naming them. */
  @Test
  void tasksThatWouldShareARunFolderAreRefused() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> TaskStream.group(List.of("x/y__z", "a/1", "x__y/z"), t -> t.substring(0, t.indexOf('/'))));
    assertTrue(e.getMessage().contains("x/y__z and x__y/z") && e.getMessage().contains("x__y__z"), e.getMessage());
    IllegalArgumentException twice = assertThrows(IllegalArgumentException.class,
        () -> TaskStream.group(List.of("a/1", "a/1"), t -> "a"));
    assertTrue(twice.getMessage().contains("a/1 twice"), twice.getMessage());
  }

  @Test
  void onlyDomainsKeepsTheNamedDomainsInTheirOrder() {
    assertStream(
        List.of(Map.entry("zeta", List.of("z1")), Map.entry("accounting", List.of("ledger-2", "ledger-3", "ledger-1"))),
        TaskStream.onlyDomains(tasks(), List.of("accounting", "zeta")));
  }

  @Test
  void emptyOnlyDomainsKeepsEveryDomain() {
    assertStream(List.copyOf(tasks().entrySet()), TaskStream.onlyDomains(tasks(), List.of()));
  }

  @Test
  void unknownOnlyDomainsListsUnknownAndAvailableDomains() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class, () -> TaskStream.onlyDomains(tasks(), List.of("legal", "tax", "audit")));
    assertTrue(e.getMessage().contains("--onlyDomains"), e.getMessage());
    assertTrue(e.getMessage().contains("[audit, tax]"), e.getMessage());
    assertTrue(e.getMessage().contains("[accounting, legal, zeta]"), e.getMessage());
  }

  @Test
  void maxTasksKeepsTheFirstTasksOfEachDomainInStreamOrder() {
    assertStream(
        List.of(
            Map.entry("zeta", List.of("z1")),
            Map.entry("legal", List.of("a/1")),
            Map.entry("accounting", List.of("ledger-3"))),
        TaskStream.maxTasks(TaskStream.order(tasks(), BigInteger.valueOf(7), Optional.empty()), 1));
  }

  @Test
  void maxTasksBelowOneIsAnErrorNamingTheFlag() {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> TaskStream.maxTasks(tasks(), 0));
    assertTrue(e.getMessage().contains("--maxTasks"), e.getMessage());
  }
}
