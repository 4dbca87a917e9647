package dev.h2beam.transforms.stream;

import dev.h2beam.adapters.model.Namespace;
import dev.h2beam.transforms.selection.PyRandom;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;

/**
 * The task stream of a sweep (spec §8.1): tasks grouped by domain, filtered, put in stream order and capped.
 *
 * <p>Every step returns a new insertion-ordered map whose key order is the domain order, so the result can be written
 * or iterated without re-sorting. A seeded order depends only on (seed, domain, task set): each shuffle starts from the
 * sorted list, never from the adapter's order.
 */
public final class TaskStream {
  private TaskStream() {}

  /**
   * Groups {@code tasks} by {@code domainOf}; domains in first-seen order, tasks in adapter order within a domain.
   *
   * @throws IllegalArgumentException if a task is listed twice, or two tasks would share one run folder (a task id's
   *     {@code /} becomes {@code __}, {@link Namespace#slug}), where each would overwrite the other's files
   */
  public static LinkedHashMap<String, List<String>> group(List<String> tasks, Function<String, String> domainOf) {
    LinkedHashMap<String, List<String>> groups = new LinkedHashMap<>();
    Map<String, String> folders = new HashMap<>();
    for (String task : tasks) {
      String other = folders.putIfAbsent(Namespace.slug(task), task);
      if (other != null) {
        throw new IllegalArgumentException(other.equals(task) ? "the benchmark lists task " + task + " twice"
            : "tasks " + other + " and " + task + " would share one run folder, " + Namespace.slug(task)
                + " (a task id's / becomes __ in its folder's name); rename one of the two");
      }
      String domain = Objects.requireNonNull(domainOf.apply(task), () -> "no domain for task " + task);
      groups.computeIfAbsent(domain, d -> new ArrayList<>()).add(task);
    }
    return freeze(groups);
  }

  /**
   * Keeps only the domains named in {@code only}, in their existing order; {@code null} or empty keeps every domain.
   *
   * @throws IllegalArgumentException if a name is not a domain of the benchmark, listing the unknown and the
   *     available domains
   */
  public static LinkedHashMap<String, List<String>> onlyDomains(
      LinkedHashMap<String, List<String>> tasksByDomain, Collection<String> only) {
    if (only == null || only.isEmpty()) return freeze(tasksByDomain);
    Set<String> unknown = new TreeSet<>(PyRandom.STRING_ORDER);
    for (String name : only) if (!tasksByDomain.containsKey(name)) unknown.add(name);
    if (!unknown.isEmpty()) {
      throw new IllegalArgumentException(
          "--onlyDomains names unknown domain(s) " + unknown + "; available domains: " + sorted(tasksByDomain.keySet())
              + ". Pass only names from the available list.");
    }
    Set<String> keep = new LinkedHashSet<>(only);
    LinkedHashMap<String, List<String>> kept = new LinkedHashMap<>();
    tasksByDomain.forEach((domain, tasks) -> {
      if (keep.contains(domain)) kept.put(domain, tasks);
    });
    return freeze(kept);
  }

  /**
   * Puts domains and tasks in stream order (§8.1 step 5).
   *
   * <p>Without a seed: domains in {@code referenceDomainOrder} if present (entries with no tasks are skipped), else
   * by descending task count then name; tasks sorted within each domain. With a seed: domains sorted then shuffled
   * with {@code Random("<seed>:__domains__")}; the tasks of domain {@code d} sorted then shuffled with
   * {@code Random("<seed>:<d>")}.
   *
   * @throws IllegalArgumentException if there is no seed and a domain is absent from the reference order
   */
  public static LinkedHashMap<String, List<String>> order(
      LinkedHashMap<String, List<String>> tasksByDomain, BigInteger seedOrNull,
      Optional<List<String>> referenceDomainOrder) {
    Objects.requireNonNull(tasksByDomain, "tasksByDomain");
    Objects.requireNonNull(referenceDomainOrder, "referenceDomainOrder (use Optional.empty())");
    List<String> domains;
    if (seedOrNull != null) {
      domains = sorted(tasksByDomain.keySet());
      new PyRandom(seedOrNull + ":__domains__").shuffle(domains);
    } else if (referenceDomainOrder.isPresent()) {
      domains = referenceOrder(tasksByDomain.keySet(), referenceDomainOrder.get());
    } else {
      domains = new ArrayList<>(tasksByDomain.keySet());
      domains.sort(
          Comparator.<String>comparingInt(d -> -tasksByDomain.get(d).size()).thenComparing(PyRandom.STRING_ORDER));
    }
    LinkedHashMap<String, List<String>> ordered = new LinkedHashMap<>();
    for (String domain : domains) {
      List<String> tasks = sorted(tasksByDomain.get(domain));
      if (seedOrNull != null) new PyRandom(seedOrNull + ":" + domain).shuffle(tasks);
      ordered.put(domain, tasks);
    }
    return freeze(ordered);
  }

  private static List<String> referenceOrder(Set<String> present, List<String> reference) {
    Set<String> known = new LinkedHashSet<>(reference);
    List<String> missing = new ArrayList<>();
    for (String domain : present) if (!known.contains(domain)) missing.add(domain);
    if (!missing.isEmpty()) {
      throw new IllegalArgumentException(
          "domain(s) " + missing + " are missing from the benchmark's reference domain order " + reference
              + "; add them to the adapter's reference domain order, or pass --seed for a shuffled order.");
    }
    List<String> domains = new ArrayList<>();
    for (String domain : known) if (present.contains(domain)) domains.add(domain);
    return domains;
  }

  /**
   * Keeps the first {@code max} tasks of each domain in stream order (§8.1 step 6).
   *
   * @throws IllegalArgumentException if {@code max < 1}
   */
  public static LinkedHashMap<String, List<String>> maxTasks(LinkedHashMap<String, List<String>> ordered, int max) {
    if (max < 1) {
      throw new IllegalArgumentException("--maxTasks must be >= 1, got " + max + "; omit it to run every task.");
    }
    LinkedHashMap<String, List<String>> capped = new LinkedHashMap<>();
    ordered.forEach((domain, tasks) -> capped.put(domain, tasks.subList(0, Math.min(max, tasks.size()))));
    return freeze(capped);
  }

  private static List<String> sorted(Collection<String> names) {
    List<String> out = new ArrayList<>(names);
    out.sort(PyRandom.STRING_ORDER);
    return out;
  }

  /** A fresh insertion-ordered map with immutable copies of the task lists, so results never alias their input. */
  private static LinkedHashMap<String, List<String>> freeze(Map<String, List<String>> map) {
    LinkedHashMap<String, List<String>> out = new LinkedHashMap<>();
    map.forEach((domain, tasks) -> out.put(domain, List.copyOf(tasks)));
    return out;
  }
}
