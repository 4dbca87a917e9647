package dev.h2beam.demo;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * The tasks of a ledger benchmark: each task's domain and ledger text, in task order. The demo has two fixed ledgers;
 * the synthetic benchmark generates {@code domains × tasksPerDomain} of them, the same ones on every run.
 */
final class LedgerTasks {

  /** The demo's two ledgers, both in the accounting domain. */
  static final LedgerTasks DEMO;

  static {
    Map<String, String[]> demo = new LinkedHashMap<>();
    demo.put("ledger-1", new String[] {"accounting", "amount\n100.25\n-20.10\n5.00\n"});
    demo.put("ledger-2", new String[] {"accounting", "amount\n35.50\n-10.25\n-5.00\n"});
    DEMO = new LedgerTasks(demo);
  }

  /** Task id → {domain, ledger text}, in task order. */
  private final Map<String, String[]> tasks;

  private LedgerTasks(Map<String, String[]> tasks) {
    this.tasks = Collections.unmodifiableMap(new LinkedHashMap<>(tasks));
  }

  /**
   * {@code domains × tasksPerDomain} generated tasks: domain {@code dNN}, task {@code dNN-tMM} (zero-padded so name
   * order is number order), each with a ledger of three to six amounts, at least one of them negative, so the base
   * script (which drops credits) prints a wrong total and every task's total differs.
   */
  static LedgerTasks synthetic(int domains, int tasksPerDomain) {
    if (domains < 1 || tasksPerDomain < 1) {
      throw new IllegalArgumentException("domains and tasksPerDomain must be at least 1, got " + domains + " and "
          + tasksPerDomain);
    }
    int dWidth = Math.max(2, String.valueOf(domains).length());
    int tWidth = Math.max(2, String.valueOf(tasksPerDomain).length());
    Map<String, String[]> out = new LinkedHashMap<>();
    for (int d = 1; d <= domains; d++) {
      String domain = "d" + padded(d, dWidth);
      for (int t = 1; t <= tasksPerDomain; t++) {
        String task = domain + "-t" + padded(t, tWidth);
        out.put(task, new String[] {domain, generatedLedger(task)});
      }
    }
    return new LedgerTasks(out);
  }

  /** {@code n} (not negative) in ASCII digits, zeros in front up to {@code width}. */
  static String padded(long n, int width) {
    String digits = Long.toString(n);
    return digits.length() >= width ? digits : "0".repeat(width - digits.length()) + digits;
  }

  /** A ledger whose amounts depend only on the task id. */
  private static String generatedLedger(String task) {
    SplittableRandom random = new SplittableRandom(task.hashCode());
    int rows = 3 + random.nextInt(4);
    StringBuilder sb = new StringBuilder("amount\n");
    for (int i = 0; i < rows; i++) {
      long cents = 1 + random.nextInt(50_000);
      if (i == 1 || random.nextInt(3) == 0) cents = -cents;
      sb.append(cents < 0 ? "-" : "").append(Math.abs(cents) / 100).append('.')
          .append(padded(Math.abs(cents) % 100, 2)).append('\n');
    }
    return sb.toString();
  }

  List<String> ids() {
    return List.copyOf(tasks.keySet());
  }

  boolean has(String task) {
    return tasks.containsKey(task);
  }

  String domainOf(String task) {
    return tasks.get(task)[0];
  }

  String ledger(String task) {
    return tasks.get(task)[1];
  }

  /** The task ids for an error message: all of a few, else the first and last. */
  String describe() {
    List<String> ids = new ArrayList<>(tasks.keySet());
    return ids.size() <= 4 ? ids.toString() : "[" + ids.get(0) + " ... " + ids.get(ids.size() - 1) + "] ("
        + ids.size() + ")";
  }
}
