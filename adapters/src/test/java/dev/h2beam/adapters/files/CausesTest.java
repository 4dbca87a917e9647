package dev.h2beam.adapters.files;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ConnectException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

class CausesTest {
  /** {@code depth} wrappers around {@code inner}, outermost returned. */
  private static Throwable wrapped(Throwable inner, int depth) {
    Throwable t = inner;
    for (int i = 0; i < depth; i++) t = new RuntimeException("wrapper " + i, t);
    return t;
  }

  @Test
  void theFirstMatchIsFoundDeepInTheChainAndTheOutermostMatchWins() {
    ConnectException deep = new ConnectException("refused");
    IOException middle = new IOException("middle", deep);
    Throwable outer = wrapped(middle, 20);
    assertSame(deep, Causes.find(outer, t -> t instanceof ConnectException).orElseThrow());
    assertSame(middle, Causes.find(outer, t -> t instanceof IOException).orElseThrow(), "outermost first");
    assertSame(outer, Causes.find(outer, t -> true).orElseThrow(), "the failure itself is looked at first");
    assertTrue(Causes.any(outer, t -> "refused".equals(t.getMessage())));
  }

  @Test
  void aMatchOfAClassIsFoundAsThatClass() {
    java.nio.file.FileSystemException noFile = new java.nio.file.FileSystemException(null, null, "Read-only");
    java.nio.file.AccessDeniedException named = new java.nio.file.AccessDeniedException("/x", null, "denied");
    noFile.initCause(new IllegalStateException("between", named));
    Throwable outer = wrapped(new IOException("io", noFile), 2);
    Optional<java.nio.file.FileSystemException> f = Causes.find(outer, java.nio.file.FileSystemException.class,
        x -> x.getFile() != null);
    assertEquals("/x", f.orElseThrow().getFile(), "the first of the class that the test accepts, not the first");
    assertSame(noFile, Causes.find(outer, java.nio.file.FileSystemException.class, x -> true).orElseThrow());
    assertEquals(Optional.empty(), Causes.find(outer, ConnectException.class, x -> true));
  }

  @Test
  void noMatchIsEmptyAndEachThrowableIsLookedAtOnce() {
    Throwable outer = wrapped(new IllegalStateException("bottom"), 5);
    List<Throwable> looked = new ArrayList<>();
    assertEquals(Optional.empty(), Causes.find(outer, t -> looked.add(t) && t instanceof OutOfMemoryError));
    assertEquals(6, looked.size());
    assertFalse(Causes.any(outer, t -> t instanceof ConnectException));
    assertFalse(Causes.any(null, t -> true), "no failure, no match");
  }

  @Test
  @Timeout(10)
  void aChainThatLoopsBackIsWalkedOnce() {
    IOException a = new IOException("a");
    UncheckedIOException b = new UncheckedIOException("b", a);
    a.initCause(b);
    Throwable outer = wrapped(b, 3);
    List<Throwable> looked = new ArrayList<>();
    assertEquals(Optional.empty(), Causes.find(outer, t -> looked.add(t) && t instanceof ConnectException));
    assertEquals(List.of(outer, outer.getCause(), outer.getCause().getCause(), b, a), looked);
    assertSame(a, Causes.find(outer, t -> "a".equals(t.getMessage())).orElseThrow());
    // the innermost of a loop is where it closes: a cause that has a cause of its own
    assertSame(b, Causes.innermost(outer));
  }

  @Test
  void theInnermostCauseIsTheLastOfTheChain() {
    IllegalStateException bottom = new IllegalStateException("bottom");
    assertSame(bottom, Causes.innermost(wrapped(bottom, 7)));
    assertSame(bottom, Causes.innermost(bottom));
  }
}
