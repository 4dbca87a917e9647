package dev.h2beam.transforms.recursion;

import dev.h2beam.adapters.model.Namespace;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Set;

/**
 * Deliberate faults for testing the method's guards ({@code --inject=kind@task/mode,...}). Kinds:
 * {@code ledger-duplicate} records one rollout label twice before the ledger check, which must then refuse the mode;
 * {@code crash-once} makes the mode's DoFn element fail once, after its proposals and their rollouts completed, the
 * way a lost worker would: the runner's retry (or repeating the command) must then spend nothing twice.
 */
public final class Faults implements Serializable {
  private static final long serialVersionUID = 1L;
  public static final Set<String> KINDS = Set.of("ledger-duplicate", "crash-once");
  public static final Faults NONE = new Faults(List.of(), List.of());

  private final List<String> entries;
  /** Each entry as the user typed it (its mode may be a name), for the messages that quote it. */
  private final List<String> typed;

  private Faults(List<String> entries, List<String> typed) {
    this.entries = List.copyOf(entries);
    this.typed = List.copyOf(typed);
  }

  /**
   * Parses {@code kind@task/mode} entries, the mode as a name or a token ({@code gated} or {@code gat}) and kept as
   * the token the modes check for (a name used to match nothing, so the fault was silently never injected); an
   * empty string means none.
   */
  public static Faults parse(String spec) {
    if (spec == null || spec.isBlank()) return NONE;
    List<String> out = new ArrayList<>();
    List<String> typed = new ArrayList<>();
    for (String raw : spec.split(",")) {
      String e = raw.strip();
      int at = e.indexOf('@');
      int slash = e.lastIndexOf('/');
      if (at < 1 || slash < at + 2 || slash == e.length() - 1 || !KINDS.contains(e.substring(0, at))) {
        throw new IllegalArgumentException("--inject entry '" + e + "' must look like kind@task/mode with kind one of "
            + KINDS);
      }
      String mode;
      try {
        mode = Namespace.modeToken(e.substring(slash + 1));
      } catch (IllegalArgumentException x) {
        throw new IllegalArgumentException("--inject entry '" + e + "': '" + e.substring(slash + 1) + "' is not a"
            + " mode; use parallel, sequential or gated (or agg, seq, gat)");
      }
      out.add(e.substring(0, slash + 1) + mode);
      typed.add(e);
    }
    return new Faults(out, typed);
  }

  /**
   * Refuses an entry whose task or mode this run does not have: such a fault would never fire, and the run would
   * pass without testing the guard it was asked to test.
   */
  public void requireIn(Collection<String> tasks, List<String> modes) {
    for (int i = 0; i < entries.size(); i++) {
      String e = entries.get(i);
      String as = typed.get(i);
      int at = e.indexOf('@');
      int slash = e.lastIndexOf('/');
      String task = e.substring(at + 1, slash);
      String mode = e.substring(slash + 1);
      if (!tasks.contains(task)) {
        List<String> some = tasks.stream().limit(5).toList();
        throw new IllegalArgumentException("--inject entry '" + as + "' names task '" + task + "', which this run does"
            + " not have; its tasks: " + some + (tasks.size() > some.size() ? " and " + (tasks.size() - some.size())
            + " more" : "") + " (see --dryRun=true)");
      }
      if (!modes.contains(mode)) {
        throw new IllegalArgumentException("--inject entry '" + as + "' names mode " + Namespace.modeName(mode)
            + ", which this run does not run; add it to --modes");
      }
    }
  }

  public boolean has(String kind, String task, String mode) {
    return entries.contains(kind + "@" + task + "/" + mode);
  }

  /**
   * Crashes the current element once for {@code crash-once@task/mode}: the first time, a marker file under
   * {@code <runsRoot>/_faults/} is created and an {@link InjectedCrash} thrown; afterwards nothing happens.
   */
  public void crashOnce(java.nio.file.Path runsRoot, String task, String mode) {
    if (!has("crash-once", task, mode)) return;
    java.nio.file.Path marker = runsRoot.resolve("_faults").resolve(("crash-once@" + task + "@" + mode)
        .replaceAll("[^A-Za-z0-9_.@-]+", "_"));
    try {
      java.nio.file.Files.createDirectories(marker.getParent());
      java.nio.file.Files.createFile(marker);
    } catch (java.nio.file.FileAlreadyExistsException e) {
      return;
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException("cannot record the injected crash at " + marker, e);
    }
    throw new InjectedCrash("injected crash-once@" + task + "/" + mode + " (marker " + marker + ")");
  }

  /** A deliberate crash; an Error so that no step records it as a failed mode: the element itself must fail. */
  public static final class InjectedCrash extends Error {
    private static final long serialVersionUID = 1L;

    InjectedCrash(String message) {
      super(message);
    }
  }

  @Override public String toString() {
    return String.join(",", entries);
  }
}
