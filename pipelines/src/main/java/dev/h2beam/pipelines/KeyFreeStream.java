package dev.h2beam.pipelines;

import dev.h2beam.adapters.config.EnvKeys;
import dev.h2beam.adapters.config.KeyFree;
import java.io.PrintStream;

/**
 * A console stream that prints no held key ({@link EnvKeys#current}, in every form a screen looks for): each text
 * printed to it has them replaced by {@link EnvKeys#REDACTED}, then goes to the stream it wraps, in that stream's own
 * encoding. h2beam's messages quote what users and programs gave it (a flag's value, an endpoint's error body, a
 * failing executor's stderr), any of which can hold a key it holds; this is the one place every such line passes, so
 * no message has to remember to redact. Bytes written to it as bytes pass unchanged: h2beam prints text.
 */
final class KeyFreeStream extends PrintStream {
  private final PrintStream to;

  private KeyFreeStream(PrintStream to) {
    super(to, true);
    this.to = to;
  }

  /** {@code to}, printing no held key; itself when it is one already. */
  static PrintStream of(PrintStream to) {
    return to instanceof KeyFreeStream ? to : new KeyFreeStream(to);
  }

  @Override public void print(String s) {
    to.print(KeyFree.text(s));
  }

  @Override public void print(Object o) {
    to.print(KeyFree.text(String.valueOf(o)));
  }

  @Override public void print(char[] s) {
    to.print(KeyFree.text(String.valueOf(s)));
  }

  @Override public void print(char c) {
    to.print(c);
  }

  @Override public void println(String s) {
    to.println(KeyFree.text(s));
  }

  @Override public void println(Object o) {
    to.println(KeyFree.text(String.valueOf(o)));
  }

  @Override public void println(char[] s) {
    to.println(KeyFree.text(String.valueOf(s)));
  }

  @Override public void println() {
    to.println();
  }

  @Override public PrintStream append(CharSequence s) {
    to.print(KeyFree.text(String.valueOf(s)));
    return this;
  }

  @Override public PrintStream append(CharSequence s, int start, int end) {
    return append(s == null ? "null" : s.subSequence(start, end));
  }

  @Override public void flush() {
    to.flush();
  }
}
