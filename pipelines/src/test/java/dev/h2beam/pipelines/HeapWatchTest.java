package dev.h2beam.pipelines;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class HeapWatchTest {
  @Test
  void thrashingIsCalledOnlyOverAWholeWindowOfFullHeapsAndCollection() {
    HeapWatch.Window w = new HeapWatch.Window(5);
    long gc = 0;
    for (int s = 0; s < 5; s++) {
      assertFalse(w.add(s * 1000L, gc, 0.95), "not yet a whole window at " + s + " s");
      gc += 900;
    }
    assertTrue(w.add(5000, gc, 0.95), "5 s, 4.5 s of it collecting, the heap full throughout");
    assertEquals(5, w.seconds());
    assertEquals(5, w.gcSeconds());

    HeapWatch.Window busy = new HeapWatch.Window(5);
    for (int s = 0; s <= 10; s++) assertFalse(busy.add(s * 1000L, s * 700L, 0.99), "70 % collecting is work");

    HeapWatch.Window room = new HeapWatch.Window(5);
    for (int s = 0; s <= 7; s++) {
      assertFalse(room.add(s * 1000L, s * 1000L, s == 2 ? 0.5 : 0.95), "a collection that freed the heap, at " + s);
    }
    assertTrue(room.add(8000, 8000, 0.95), "5 s past the one that freed it");
  }

  @Test
  void aFailureWithAnOutOfMemoryErrorAmongItsCausesNamesTheHeapAndHowToGrowIt() {
    String hint = HeapWatch.hint(new IllegalStateException("x", new RuntimeException(new OutOfMemoryError("heap"))));
    assertTrue(hint.contains("ran out of heap memory (at most ") && hint.contains("H2BEAM_JAVA_OPTS=-Xmx4g"), hint);
    assertEquals("", HeapWatch.hint(new IllegalStateException("the sweep pipeline ended FAILED")));
    OutOfMemoryError twice = new OutOfMemoryError("Java heap space");
    IllegalArgumentException self = assertThrows(IllegalArgumentException.class, () -> twice.addSuppressed(twice));
    assertTrue(HeapWatch.outOfMemory(self), "the JVM's one error, suppressed by itself");
  }

  /** A real JVM with a small heap kept full: the watch stops it, exit 1, with its line, instead of running on. */
  @Test
  void aJvmThatOnlyCollectsIsStoppedWithOneLine(@TempDir Path dir) throws Exception {
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    Path err = dir.resolve("err");
    Process p = new ProcessBuilder(java, "-Xmx24m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
        "-Dh2beam.heapWatchSeconds=3", "-cp", System.getProperty("java.class.path"), Thrasher.class.getName())
        .redirectErrorStream(false).redirectOutput(dir.resolve("out").toFile()).redirectError(err.toFile()).start();
    boolean ended = p.waitFor(120, TimeUnit.SECONDS);
    if (!ended) p.destroyForcibly().waitFor();
    String text = Files.readString(err, StandardCharsets.UTF_8);
    assertTrue(ended, "still running after 120 s: " + text);
    assertEquals(1, p.exitValue(), text);
    assertTrue(text.contains("error: sweep: out of memory: the JVM spent ")
        && text.contains("collecting garbage, its heap full (at most ") && text.contains("re-run the same command"),
        text);
    assertFalse(text.contains("thrasher done"), text);
  }

  /**
   * A healthy run's heap is never called full: a survivor space is often full after a young collection, and counted
   * among the pools it made a later failure of any cause say that the JVM ran out of heap memory.
   */
  @Test
  void aHealthyRunsHeapIsNotCalledFull(@TempDir Path dir) throws Exception {
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    Process p = new ProcessBuilder(java, "-Xmx64m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-cp",
        System.getProperty("java.class.path"), Churner.class.getName()).redirectErrorStream(true)
        .redirectOutput(dir.resolve("out").toFile()).start();
    assertTrue(p.waitFor(60, TimeUnit.SECONDS));
    String out = Files.readString(dir.resolve("out"), StandardCharsets.UTF_8);
    assertTrue(out.contains("hint=[]"), out);
  }

  /** Keeps a modest live set and churns short-lived objects past the watch's first look, then asks for a hint. */
  public static final class Churner {
    public static void main(String[] args) throws Exception {
      HeapWatch.start("sweep", System.err);
      // the objects of the last few megabytes live on through a young collection or two, as a run's in-flight
      // work does: more than a survivor space holds, so it is full after each young collection
      byte[][] recent = new byte[256][];
      long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(HeapWatch.FIRST_LOOK_S + 3);
      long sink = 0;
      int i = 0;
      while (System.nanoTime() < end) {
        recent[i++ % recent.length] = new byte[16 << 10];
        sink += recent[i % recent.length] == null ? 0 : 1;
      }
      System.out.println("hint=[" + HeapWatch.hint(new RuntimeException("the sweep pipeline ended FAILED")) + "] "
          + sink);
    }
  }

  /** Fills its heap to the brim with live data, then keeps allocating: the serial collector runs all the time. */
  public static final class Thrasher {
    public static void main(String[] args) throws InterruptedException {
      HeapWatch.start("sweep", System.err);
      // as a run's heap fills: after the watch's first look (a heap full before it is met by the error it throws)
      Thread.sleep(TimeUnit.SECONDS.toMillis(HeapWatch.FIRST_LOOK_S + 1));
      List<byte[]> live = new ArrayList<>();
      try {
        while (true) live.add(new byte[16 << 10]);
      } catch (OutOfMemoryError full) {
        for (int i = 0; i < 8 && !live.isEmpty(); i++) live.remove(live.size() - 1);
      }
      long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(100);
      int i = 0;
      while (System.nanoTime() < end) {
        try {
          live.set(i++ % live.size(), new byte[16 << 10]);
        } catch (OutOfMemoryError again) {
          live.remove(live.size() - 1);
        }
      }
      System.err.println("thrasher done" + File.separator);
    }
  }
}
