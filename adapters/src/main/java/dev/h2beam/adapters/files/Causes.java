package dev.h2beam.adapters.files;

import java.util.HashSet;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;

/**
 * The one walk down a failure's cause chain ({@link Throwable#getCause}) that every module's failure messages make:
 * each throwable is met once, so a chain whose causes loop back (two throwables given each other with {@code
 * initCause}) ends where it would repeat instead of being walked for ever.
 */
public final class Causes {
  private Causes() {}

  /** The first of {@code e} and its causes, outermost first, that {@code p} accepts; empty when none does. */
  public static Optional<Throwable> find(Throwable e, Predicate<? super Throwable> p) {
    Set<Throwable> seen = new HashSet<>();
    for (Throwable t = e; t != null && seen.add(t); t = t.getCause()) {
      if (p.test(t)) return Optional.of(t);
    }
    return Optional.empty();
  }

  /** The first of {@code e} and its causes, outermost first, that is a {@code type} and that {@code p} accepts. */
  public static <T extends Throwable> Optional<T> find(Throwable e, Class<T> type, Predicate<? super T> p) {
    return find(e, t -> type.isInstance(t) && p.test(type.cast(t))).map(type::cast);
  }

  /** Whether {@code p} accepts {@code e} or one of its causes. */
  public static boolean any(Throwable e, Predicate<? super Throwable> p) {
    return find(e, p).isPresent();
  }

  /** The innermost cause of {@code e} ({@code e} itself when it has none); in a chain that loops, where it loops. */
  public static Throwable innermost(Throwable e) {
    Throwable t = e;
    Set<Throwable> seen = new HashSet<>();
    while (t.getCause() != null && seen.add(t)) t = t.getCause();
    return t;
  }
}
