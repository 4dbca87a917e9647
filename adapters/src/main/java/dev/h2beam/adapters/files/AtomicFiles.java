package dev.h2beam.adapters.files;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/** Writes that never leave a half-written file behind: a sibling temp file, then an atomic rename. */
public final class AtomicFiles {
  private AtomicFiles() {}

  public static void writeString(Path target, String text) throws IOException {
    writeBytes(target, text.getBytes(StandardCharsets.UTF_8));
  }

  public static void writeBytes(Path target, byte[] bytes) throws IOException {
    Path parent = target.toAbsolutePath().getParent();
    Files.createDirectories(parent);
    Path tmp = Files.createTempFile(parent, "." + target.getFileName() + ".", ".tmp");
    try {
      Files.write(tmp, bytes);
      try {
        Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
      } catch (AtomicMoveNotSupportedException e) {
        Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING);
      }
    } finally {
      Files.deleteIfExists(tmp);
    }
  }
}
