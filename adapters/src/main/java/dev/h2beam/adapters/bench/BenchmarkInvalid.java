package dev.h2beam.adapters.bench;

import java.util.List;
import java.util.Optional;

/** A benchmark that cannot be opened, with every problem found (each names its file and what to do). */
public final class BenchmarkInvalid extends IllegalArgumentException {
  private final List<String> problems;
  /** The benchmark as far as it opened, or null. */
  private final transient Benchmark partial;

  public BenchmarkInvalid(List<String> problems) {
    this(problems, null);
  }

  /**
   * @param partial the benchmark as far as it opened (its base harness, spec and the tasks that passed; it must not
   *     execute), for a preflight that looks for the problems of the rest too; null when none could be built
   */
  public BenchmarkInvalid(List<String> problems, Benchmark partial) {
    super(problems.size() + " problem(s):\n  " + String.join("\n  ", problems));
    this.problems = List.copyOf(problems);
    this.partial = partial;
  }

  public List<String> problems() {
    return problems;
  }

  /** The benchmark as far as it opened, to check its base harness with: never to run. */
  public Optional<Benchmark> partial() {
    return Optional.ofNullable(partial);
  }
}
