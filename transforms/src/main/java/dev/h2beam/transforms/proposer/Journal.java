package dev.h2beam.transforms.proposer;

import dev.h2beam.adapters.files.Uninterruptible;
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
 * every execution actually run, so anyone can prove that nothing ran twice. Appends are serialised within the JVM,
 * locked across processes, and finished even when the runner is cancelling the appending thread
 * ({@link Uninterruptible}).
 */
public final class Journal {
  private Journal() {}

  public static synchronized void append(Path file, String line) throws IOException {
    Uninterruptible.run(() -> {
      Files.createDirectories(file.toAbsolutePath().getParent());
      try (FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
          StandardOpenOption.APPEND);
          FileLock lock = ch.lock()) {
        ch.write(ByteBuffer.wrap((line + "\n").getBytes(StandardCharsets.UTF_8)));
      }
    });
  }

  /** The journal's lines; none when it does not exist. */
  public static List<String> lines(Path file) throws IOException {
    if (!Files.isRegularFile(file)) return List.of();
    return Files.readAllLines(file, StandardCharsets.UTF_8).stream().filter(l -> !l.isBlank()).toList();
  }
}
