package dev.h2beam.transforms.proposer;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;

/**
 * Append-only JSON-lines journals ({@code sessions.jsonl}, {@code executions.jsonl}) that record every session and
 * every execution actually run, so anyone can prove that nothing ran twice. Appends are serialised within the JVM and
 * locked across processes.
 */
public final class Journal {
  private Journal() {}

  public static synchronized void append(Path file, String line) throws IOException {
    Files.createDirectories(file.toAbsolutePath().getParent());
    // not APPEND, which excludes READ: under the lock this is the only writer, and it writes at the end
    try (FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.READ,
        StandardOpenOption.WRITE);
        FileLock lock = ch.lock()) {
      // a writer killed mid-append leaves a line without its newline; end it first, so the torn line stays a line of
      // its own (one unreadable record) and this record is not glued onto it and lost
      String prefix = endsTorn(ch) ? "\n" : "";
      ByteBuffer bytes = ByteBuffer.wrap((prefix + line + "\n").getBytes(StandardCharsets.UTF_8));
      long at = ch.size();
      while (bytes.hasRemaining()) at += ch.write(bytes, at);
    }
  }

  private static boolean endsTorn(FileChannel ch) throws IOException {
    long size = ch.size();
    if (size == 0) return false;
    ByteBuffer last = ByteBuffer.allocate(1);
    ch.read(last, size - 1);
    return last.get(0) != '\n';
  }

  /** The journal's lines; none when it does not exist. */
  public static List<String> lines(Path file) throws IOException {
    if (!Files.isRegularFile(file)) return List.of();
    return Files.readAllLines(file, StandardCharsets.UTF_8).stream().filter(l -> !l.isBlank()).toList();
  }
}
