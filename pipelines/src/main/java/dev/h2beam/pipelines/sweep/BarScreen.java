package dev.h2beam.pipelines.sweep;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.lang.ProcessBuilder.Redirect;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * The rows at the bottom of a terminal that a live progress bar holds, and the lines printed above it. A line printed
 * while the bar is up is written where the bar was and the bar is drawn again below it (what pip, cargo and tqdm do),
 * so a redraw only ever erases rows the bar itself drew. Each bar line is cut to one column less than the terminal's
 * width: none wraps, so the rows erased are exactly the rows drawn.
 */
final class BarScreen {
  private static final String UP_AND_ERASE = "\033[1A\033[2K";

  private final PrintStream out;
  private int width;
  private int height;
  private List<String> bar = List.of();
  private int rows; // terminal rows the bar covers now
  private PrintStream systemOut;
  private PrintStream systemErr;

  /** @param height the terminal's rows, 0 when not known */
  BarScreen(PrintStream out, int width, int height) {
    this.out = out;
    this.width = width;
    this.height = height;
  }

  /** The terminal's width in columns. */
  synchronized int width() {
    return width;
  }

  /** The terminal's height in rows, 0 when not known. */
  synchronized int height() {
    return height;
  }

  /**
   * The terminal's new size (it was resized); the next redraw draws to it. The bar on screen is erased as a terminal
   * that reflows its lines shows it: made narrower, it wraps the bar's longer lines onto more rows, and all of those
   * are erased. (A terminal that cuts lines instead of reflowing them loses as many rows above the bar.)
   */
  synchronized void resize(int width, int height) {
    if (width == this.width && height == this.height) return;
    this.width = width;
    this.height = height;
    if (rows > 0) rows = rowsOf(bar);
  }

  /** Replaces the bar on screen with these lines. */
  synchronized void draw(List<String> lines) {
    String erase = erase();
    bar = List.copyOf(lines);
    out.print(erase + block());
    out.flush();
  }

  /** Prints text (complete lines) on {@code target} above the bar, which is drawn again below it. */
  synchronized void above(PrintStream target, String text) {
    out.print(erase());
    out.flush(); // the bar and the text may be two streams to the one terminal: keep their order
    target.print(text);
    target.flush();
    out.print(block());
    out.flush();
  }

  /** Moves up over the bar's rows, erasing each, to where its first row was. */
  private String erase() {
    String s = rows == 0 ? "" : "\r" + UP_AND_ERASE.repeat(rows);
    rows = 0;
    return s;
  }

  private String block() {
    StringBuilder sb = new StringBuilder();
    for (String l : bar) sb.append(l).append('\n');
    rows += rowsOf(bar);
    return sb.toString();
  }

  /** The rows these lines cover at the terminal's width (a line longer than the width would still be counted). */
  private int rowsOf(List<String> lines) {
    int n = 0;
    for (String l : lines) n += Math.max(1, (l.length() + width - 1) / width);
    return n;
  }

  /** A stream whose complete lines go above the bar on {@code target}; a line not yet ended waits for its end. */
  PrintStream lines(PrintStream target) {
    return new PrintStream(new LineBuffer(text -> above(target, text)), true, StandardCharsets.UTF_8);
  }

  /**
   * Sends what the process prints on {@code System.out} and {@code System.err} above the bar until {@link #release}:
   * the sweep's task lines and its workers' warnings are printed by code that knows nothing of the bar.
   */
  void capture() {
    systemOut = System.out;
    systemErr = System.err;
    System.setOut(lines(systemOut));
    System.setErr(lines(systemErr));
  }

  /** Gives the process its streams back; a line left unended is ended, above the bar. */
  void release() {
    if (systemOut == null) return;
    PrintStream capturedOut = System.out;
    PrintStream capturedErr = System.err;
    System.setOut(systemOut);
    System.setErr(systemErr);
    capturedOut.close();
    capturedErr.close();
  }

  /** Collects bytes into lines; hands on every run of complete lines at once (one redraw for a burst). */
  private static final class LineBuffer extends OutputStream {
    private final Consumer<String> lines;
    private final ByteArrayOutputStream pending = new ByteArrayOutputStream();

    LineBuffer(Consumer<String> lines) {
      this.lines = lines;
    }

    @Override public void write(int b) {
      write(new byte[] {(byte) b}, 0, 1);
    }

    @Override public void write(byte[] b, int off, int len) {
      pending.write(b, off, len);
      byte[] all = pending.toByteArray();
      int end = all.length;
      while (end > 0 && all[end - 1] != '\n') end--; // '\n' never occurs inside a UTF-8 character
      if (end == 0) return;
      pending.reset();
      pending.write(all, end, all.length - end);
      lines.accept(new String(all, 0, end, StandardCharsets.UTF_8));
    }

    @Override public void close() {
      if (pending.size() > 0) lines.accept(pending.toString(StandardCharsets.UTF_8) + "\n");
      pending.reset();
    }
  }

  /** The terminal's width: {@code $COLUMNS} when it is a number, else what the terminal says, else 80. */
  static int width(String columns, Supplier<String> sttySize) {
    return size(columns, sttySize, 1, 2, 80);
  }

  /**
   * The terminal's height: {@code $LINES} when it is a number, else what the terminal says, else 0 (not known). A bar
   * taller than the screen would scroll, and its redraw could no longer move up over all of it.
   */
  static int height(String lines, Supplier<String> sttySize) {
    return size(lines, sttySize, 0, 1, 0);
  }

  /**
   * {@code variable} when it is a number of at least {@code least}; else field {@code field} of {@code stty size}'s
   * {@code rows cols} when that is (0 when the terminal does not know its size); else {@code otherwise}.
   */
  private static int size(String variable, Supplier<String> sttySize, int field, int least, int otherwise) {
    try {
      int n = Integer.parseInt(variable == null ? "" : variable.trim());
      if (n >= least) return n;
    } catch (NumberFormatException e) {
      // unset or not a number: ask the terminal
    }
    String[] rowsCols = sttySize.get().trim().split("\\s+");
    try {
      int n = rowsCols.length == 2 ? Integer.parseInt(rowsCols[field]) : 0;
      if (n >= least) return n;
    } catch (NumberFormatException e) {
      // not an answer
    }
    return otherwise;
  }

  /** {@code sttySize} asked at most once however often it is read (the width and the height come from one answer). */
  static Supplier<String> once(Supplier<String> sttySize) {
    String[] asked = new String[1];
    return () -> asked[0] != null ? asked[0] : (asked[0] = sttySize.get());
  }

  /**
   * {@code rows cols} as {@code stty size} reads them from the terminal, or "" when it cannot. Bash does not export
   * {@code $COLUMNS}, so this is how a sweep started from a shell learns its width. Run directly, not through the
   * ProcessRunner: that starts programs in a session of their own, without the terminal.
   */
  static String sttySize() {
    try {
      Process p = new ProcessBuilder("stty", "size").redirectInput(new File("/dev/tty"))
          .redirectError(Redirect.DISCARD).start();
      if (!p.waitFor(2, TimeUnit.SECONDS)) {
        p.destroyForcibly();
        return "";
      }
      return new String(p.getInputStream().readAllBytes(), StandardCharsets.US_ASCII);
    } catch (IOException e) {
      return ""; // no terminal to open, or no stty
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return "";
    }
  }
}
