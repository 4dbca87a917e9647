package dev.h2beam.pipelines;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.h2beam.pipelines.sweep.SweepOptions;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.beam.runners.direct.DirectOptions;
import org.apache.beam.runners.direct.DirectRunner;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.junit.jupiter.api.Test;

class LazyOptionsTest {

  /** Every h2beam getter of the sweep's options, read from both objects, must answer the same. */
  private static void assertSameAnswers(SweepOptions beam, SweepOptions lazy) throws Exception {
    List<String> compared = new ArrayList<>();
    for (Method m : SweepOptions.class.getMethods()) {
      if (m.getParameterCount() != 0 || !m.getDeclaringClass().getName().startsWith("dev.h2beam.")
          || !(m.getName().startsWith("get") || m.getName().startsWith("is"))) {
        continue;
      }
      assertEquals(m.invoke(beam), m.invoke(lazy), m.getName());
      compared.add(m.getName());
    }
    assertTrue(compared.size() > 20, "compared " + compared);
  }

  @Test
  void aPlainCommandLineAnswersAsBeamWouldWithoutBeamsRegistry() throws Exception {
    String[] args = {"--bench=demo", "--k=3", "--modes=parallel,sequential", "--seed=7", "--maxTasks=2",
        "--minWinMargin=0.25", "--sessionLimit=4", "--enforceImmutability=false"};
    SweepOptions lazy = LazyOptions.of("sweep", args, SweepOptions.class);
    assertNotNull(lazy, "a plain command line is read lazily");
    assertTrue(Proxy.getInvocationHandler(lazy) instanceof LazyOptions);
    assertEquals(DirectRunner.class, lazy.getRunner());
    assertSameAnswers(OptionArgs.parse("sweep", args, SweepOptions.class), lazy);
    // defaults only
    SweepOptions bare = LazyOptions.of("sweep", new String[0], SweepOptions.class);
    assertSameAnswers(OptionArgs.parse("sweep", new String[0], SweepOptions.class), bare);
  }

  @Test
  void anythingBeyondTheCommandsOwnSimpleOptionsIsLeftToBeam() {
    for (String[] args : List.of(new String[] {"--bench=demo", "--runner=FlinkRunner"},
        new String[] {"--bench=demo", "--targetParallelism=4"},
        new String[] {"--bench=demo", "--dryRun"},
        new String[] {"--bench="}, new String[] {"--k= 2"})) {
      assertNull(LazyOptions.of("sweep", args, SweepOptions.class), List.of(args).toString());
    }
  }

  @Test
  void aBadValueIsRefusedInTheSameWordsAsTheFullParse() {
    for (String[] args : List.of(new String[] {"--k=two"}, new String[] {"--k=1", "--k=2"},
        new String[] {"--sessionLimit=1.5"}, new String[] {"--seed=x"})) {
      UsageError full = assertThrows(UsageError.class, () -> OptionArgs.parse("sweep", args, SweepOptions.class));
      UsageError lazy = assertThrows(UsageError.class, () -> LazyOptions.of("sweep", args, SweepOptions.class));
      assertEquals(full.getMessage(), lazy.getMessage());
    }
  }

  /** An options interface with a default Beam computes, beside a constant one: as a plug-in's might be. */
  public interface Computed extends org.apache.beam.sdk.options.PipelineOptions {
    @org.apache.beam.sdk.options.Default.Integer(3)
    int getWidth();

    void setWidth(int v);

    @org.apache.beam.sdk.options.Default.InstanceFactory(Twice.class)
    Integer getDouble();

    void setDouble(Integer v);

    /** Twice the width: a default only Beam's parse can give. */
    final class Twice implements org.apache.beam.sdk.options.DefaultValueFactory<Integer> {
      @Override public Integer create(org.apache.beam.sdk.options.PipelineOptions o) {
        return 2 * o.as(Computed.class).getWidth();
      }
    }
  }

  /**
   * A getter whose default Beam computes is answered by Beam's parse of the same arguments, asked when the getter is
   * first asked; a constant default is answered without Beam; a given value is the argument's.
   */
  @Test
  void aDefaultBeamComputesIsBeamsToAnswer() {
    Computed lazy = LazyOptions.of("x", new String[] {"--width=5"}, Computed.class);
    assertNotNull(lazy, "a plain command line is read lazily whatever its interface's defaults");
    assertEquals(5, lazy.getWidth());
    assertEquals(10, lazy.getDouble(), "computed by Beam from the same arguments");
    Computed bare = LazyOptions.of("x", new String[0], Computed.class);
    assertEquals(6, bare.getDouble());
    assertEquals(3, bare.getWidth());
  }

  @Test
  void beamsObjectCarriesTheArgumentsAndWhatWasSetBefore() throws Exception {
    String[] args = {"--bench=demo", "--k=2", "--enforceEncodability=false"};
    SweepOptions lazy = OptionArgs.parseLazily("sweep", args, SweepOptions.class);
    lazy.setPhaseWidth(5);
    assertEquals(5, lazy.getPhaseWidth());
    SweepOptions real = LazyOptions.beam(lazy);
    assertTrue(!(Proxy.getInvocationHandler(real) instanceof LazyOptions), "Beam's own object");
    assertEquals(5, real.getPhaseWidth());
    assertEquals(2, real.getK());
    assertEquals(false, real.as(DirectOptions.class).isEnforceEncodability());
    // from now on the lazy object answers from Beam's, so both see every later change
    real.setK(3);
    assertEquals(3, lazy.getK());
    assertSame(real.as(DirectOptions.class), lazy.as(DirectOptions.class));
    assertSame(real, LazyOptions.beam(real));
  }

  /**
   * While another thread parses (here held inside Beam's parse: the options cache's lock, which {@code as(...)} takes
   * to check an interface), the getters of h2beam's properties answer from the arguments, a setter is taken, and the
   * parse then carries it. A parse that held the lazy object's own lock would make the getter wait: it is asked on a
   * thread of its own, with a time limit, so that shows as a failure, not a hang.
   */
  @Test
  void gettersAnswerWhileAnotherThreadParses() throws Exception {
    String[] args = {"--bench=demo", "--k=2"};
    SweepOptions lazy = OptionArgs.parseLazily("sweep", args, SweepOptions.class);
    Field field = PipelineOptionsFactory.class.getDeclaredField("CACHE");
    field.setAccessible(true);
    Object cache = ((AtomicReference<?>) field.get(null)).get();
    ExecutorService pool = Executors.newFixedThreadPool(2);
    try {
      Future<SweepOptions> parse;
      Future<Integer> k;
      AtomicReference<Thread> parser = new AtomicReference<>();
      synchronized (cache) {
        parse = pool.submit(() -> {
          parser.set(Thread.currentThread());
          return LazyOptions.beam(lazy);
        });
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while ((parser.get() == null || parser.get().getState() != Thread.State.BLOCKED)
            && System.nanoTime() < until) {
          Thread.sleep(5);
        }
        assertNotNull(parser.get(), "the parse started");
        assertEquals(Thread.State.BLOCKED, parser.get().getState(), "the parse waits inside Beam");
        k = pool.submit(() -> {
          lazy.setPhaseWidth(7);
          return lazy.getK();
        });
        assertEquals(2, k.get(10, TimeUnit.SECONDS), "answered during the parse");
        assertTrue(!parse.isDone(), "the parse was still waiting");
      }
      SweepOptions real = parse.get(30, TimeUnit.SECONDS);
      assertTrue(!(Proxy.getInvocationHandler(real) instanceof LazyOptions), "Beam's own object");
      assertEquals(7, real.getPhaseWidth(), "the setter called during the parse is carried");
      assertEquals(2, real.getK());
      assertSame(real, LazyOptions.beam(lazy), "one parse kept");
    } finally {
      pool.shutdownNow();
    }
  }
}
