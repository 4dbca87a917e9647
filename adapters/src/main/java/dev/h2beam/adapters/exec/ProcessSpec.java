package dev.h2beam.adapters.exec;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.function.BooleanSupplier;

/**
 * One program for {@link ProcessRunner} to run.
 *
 * @param command the program and its arguments; a program name without {@code /} is looked up on the {@code PATH}
 *     of {@code env} (on {@code /usr/bin:/bin} when {@code env} has none), as the child itself would
 * @param workDir the working folder, which must exist
 * @param env the complete environment of the child; nothing else is inherited (build it with {@link Env})
 * @param stdin what the child reads
 * @param stdout the file that receives standard output (created or truncated)
 * @param stderr the file that receives standard error (created or truncated; must differ from {@code stdout})
 * @param capBytes the most bytes kept per stream; the rest is read and discarded, so the child never blocks on a full
 *     pipe and never fills the disk
 * @param timeout the wall-clock limit; the whole process group is killed when it passes
 * @param cancelled polled while the child runs; true kills the group as a timeout would ({@link #NEVER} by default)
 * @param alone the program starts no process of its own (a syntax check such as {@code sh -n}): it runs without a
 *     session of its own (no {@code setsid}, a program fewer to start) and nothing is looked for after it exits; a
 *     timeout or a cancellation kills it and whatever the JVM sees below it. False by default; never for a harness's
 *     own scripts or an agent, whose children must die with them
 * @param groupRecord the file that records the running program ({@link GroupRecord}) from its start until its group
 *     is gone, so that a later run in the same folder can kill it if h2beam could not; null for none (the default)
 * @param isolation what of the file system the program may not see ({@link Isolation}); null for none (the default).
 *     An isolated program always gets a session of its own
 */
public record ProcessSpec(List<String> command, Path workDir, SortedMap<String, String> env, Stdin stdin,
    Path stdout, Path stderr, long capBytes, Duration timeout, BooleanSupplier cancelled, boolean alone,
    Path groupRecord, Isolation isolation) {

  /** The default cap per stream: far more than any message a program prints, far less than a disk. */
  public static final long DEFAULT_CAP_BYTES = 8L << 20;

  /** A cancellation hook that never fires. */
  public static final BooleanSupplier NEVER = () -> false;

  public ProcessSpec {
    command = List.copyOf(command);
    if (command.isEmpty() || command.get(0).isEmpty()) {
      throw new IllegalArgumentException("a process needs a program to run; the command is empty");
    }
    Objects.requireNonNull(workDir, "workDir");
    env = Collections.unmodifiableSortedMap(new TreeMap<>(env));
    env.forEach((name, value) -> Objects.requireNonNull(value, () -> "environment variable " + name + " is null"));
    Objects.requireNonNull(stdin, "stdin");
    Objects.requireNonNull(stdout, "stdout");
    Objects.requireNonNull(stderr, "stderr");
    if (stdout.toAbsolutePath().normalize().equals(stderr.toAbsolutePath().normalize())) {
      throw new IllegalArgumentException("stdout and stderr need two files; both are " + stdout);
    }
    if (capBytes <= 0) throw new IllegalArgumentException("capBytes must be positive, got " + capBytes);
    Objects.requireNonNull(timeout, "timeout");
    if (timeout.isZero() || timeout.isNegative()) {
      throw new IllegalArgumentException("timeout must be positive, got " + timeout);
    }
    cancelled = cancelled == null ? NEVER : cancelled;
    alone = alone && isolation == null;
  }

  /** A spec reading /dev/null, capped at {@link #DEFAULT_CAP_BYTES}, never cancelled. */
  public static ProcessSpec of(List<String> command, Path workDir, Map<String, String> env, Path stdout, Path stderr,
      Duration timeout) {
    return new ProcessSpec(command, workDir, new TreeMap<>(env), Stdin.none(), stdout, stderr, DEFAULT_CAP_BYTES,
        timeout, NEVER, false, null, null);
  }

  public ProcessSpec withStdin(Stdin in) {
    return new ProcessSpec(command, workDir, env, in, stdout, stderr, capBytes, timeout, cancelled, alone, groupRecord,
        isolation);
  }

  public ProcessSpec withCapBytes(long cap) {
    return new ProcessSpec(command, workDir, env, stdin, stdout, stderr, cap, timeout, cancelled, alone, groupRecord,
        isolation);
  }

  public ProcessSpec withCancelled(BooleanSupplier hook) {
    return new ProcessSpec(command, workDir, env, stdin, stdout, stderr, capBytes, timeout, hook, alone, groupRecord,
        isolation);
  }

  /** This program as one that starts no process of its own ({@code alone}: no session of its own, no leftovers). */
  public ProcessSpec runAlone() {
    return new ProcessSpec(command, workDir, env, stdin, stdout, stderr, capBytes, timeout, cancelled, true,
        groupRecord, isolation);
  }

  /** This program recording itself in {@code file} while it runs ({@link GroupRecord}). */
  public ProcessSpec withGroupRecord(Path file) {
    return new ProcessSpec(command, workDir, env, stdin, stdout, stderr, capBytes, timeout, cancelled, alone, file,
        isolation);
  }

  /** This program run in namespaces of its own that hide what {@code i} says; null runs it as it is. */
  public ProcessSpec withIsolation(Isolation i) {
    return new ProcessSpec(command, workDir, env, stdin, stdout, stderr, capBytes, timeout, cancelled, alone,
        groupRecord, i);
  }

  /** The program's standard input: a text, a file, or nothing. */
  public sealed interface Stdin {
    /** Reads {@code /dev/null}: the child sees end of input at once. */
    record None() implements Stdin {}

    /** The text, in UTF-8; a child that stops reading early is not an error. */
    record Text(String text) implements Stdin {
      public Text {
        Objects.requireNonNull(text, "text");
      }
    }

    /** The bytes of a file. */
    record FromFile(Path file) implements Stdin {
      public FromFile {
        Objects.requireNonNull(file, "file");
      }
    }

    static Stdin none() {
      return new None();
    }

    static Stdin text(String text) {
      return new Text(text);
    }

    static Stdin file(Path file) {
      return new FromFile(file);
    }
  }
}
