package dev.h2beam.pipelines;

import org.apache.beam.sdk.options.PipelineOptions;

/** One {@code h2beam} subcommand; registered through {@code META-INF/services}. */
public interface Command {
  String name();

  /** One line for {@code h2beam --help}. */
  String summary();

  /** The options interface whose described getters {@code h2beam SUB --help} lists. */
  Class<? extends PipelineOptions> options();

  /** Defaults this command uses instead of the options interface's own (shown in help). */
  default java.util.Map<String, String> defaults() {
    return java.util.Map.of();
  }

  /** Whether the command runs Beam pipelines, so that its help lists the runner's options too. */
  default boolean runsPipelines() {
    return true;
  }

  /** Options of {@link #options()} this command always refuses or sets itself, left out of its help. */
  default java.util.Set<String> hiddenOptions() {
    return java.util.Set.of();
  }

  /** Help texts this command gives options in place of the options interface's own (where its defaults differ). */
  default java.util.Map<String, String> descriptions() {
    return java.util.Map.of();
  }

  /** Its exit codes besides 0 and 1, for the end of its help (the README's "Exit codes" has them all); or none. */
  default String exitCodes() {
    return "";
  }

  /** Runs the command; returns the process exit code. A {@link UsageError} means bad options (exit 1). */
  int run(String[] args) throws Exception;
}
