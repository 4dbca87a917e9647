package dev.h2beam.pipelines;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.atomic.AtomicInteger;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class BeamRegistryTest {

  @AfterEach void forget() {
    BeamRegistry.clearFailure();
  }

  @Test void theThreadAsksItsQuestionOffTheCallersThreadAndBuildsTheRegistryOnlyWhenTold() throws Exception {
    AtomicInteger asked = new AtomicInteger();
    Thread[] askedOn = new Thread[1];
    Thread t = BeamRegistry.start(() -> {
      asked.incrementAndGet();
      askedOn[0] = Thread.currentThread();
      return false;
    });
    t.join(10_000);
    assertFalse(t.isAlive());
    assertTrue(t.isDaemon(), "a thread of its own must never keep the JVM alive");
    assertEquals(1, asked.get());
    assertSame(t, askedOn[0]);
    assertEquals("h2beam-beam-registry", t.getName());

    Thread built = BeamRegistry.start(() -> true);
    built.join(60_000);
    assertFalse(built.isAlive());
    // nothing recorded: the registry was built (or had been), and parsing needs nothing more
    assertDoesNotThrow(() -> BeamRegistry.rethrowFailure(new NoClassDefFoundError("x")));
    assertFalse(PipelineOptionsFactory.getRegisteredOptions().isEmpty());
  }

  @Test void aFailureOnTheThreadIsWhatTheParseThrowsNotTheJvmsBareNoClassDefFoundError() throws Exception {
    IllegalArgumentException bad = new IllegalArgumentException("options interface Bad declares getX twice");
    Thread t = BeamRegistry.start(() -> {
      throw new ExceptionInInitializerError(bad);
    });
    t.join(10_000);
    NoClassDefFoundError bare = new NoClassDefFoundError("Could not initialize class PipelineOptionsFactory");
    ExceptionInInitializerError thrown = assertThrows(ExceptionInInitializerError.class,
        () -> BeamRegistry.rethrowFailure(bare));
    assertSame(bad, thrown.getCause(), "the original error, with its message, reaches the command");
    assertSame(bare, thrown.getSuppressed()[0]);
  }

  @Test void withNoFailureRecordedTheCallerRethrowsItsOwnError() {
    assertDoesNotThrow(() -> BeamRegistry.rethrowFailure(new NoClassDefFoundError("x")));
  }
}
