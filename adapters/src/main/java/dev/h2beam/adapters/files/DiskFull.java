package dev.h2beam.adapters.files;

import java.io.IOException;
import java.nio.file.FileSystemException;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Optional;
import java.util.Set;

/**
 * A failure that is a full disk (ENOSPC): no bug of h2beam's, so it is told in one line, naming the file that could
 * not be written and saying that freeing space and running the command again resumes. The JDK reports it with the
 * system's message, often without the file (a write to an open stream): writes that know their file name it
 * ({@link #naming}).
 */
public final class DiskFull {
  private DiskFull() {}

  /** The system's message for ENOSPC. */
  public static final String REASON = "No space left on device";

  /** The line for {@code e} when it, or any of its causes, is a full disk; empty for any other failure. */
  public static Optional<String> line(Throwable e) {
    boolean full = false;
    String file = null;
    Set<Throwable> seen = new HashSet<>();
    for (Throwable t = e; t != null && seen.add(t); t = t.getCause()) {
      if (t.getMessage() == null || !t.getMessage().contains(REASON)) continue;
      full = true;
      if (file == null && t instanceof FileSystemException f) file = f.getFile();
    }
    if (!full) return Optional.empty();
    return Optional.of((file == null ? "ran out of disk space (" : "could not write " + file + " (") + REASON
        + "): free space and re-run the same command; finished work is kept and resumed");
  }

  /** {@code e} naming {@code file} when it is a full disk that does not name its file; else {@code e} itself. */
  public static IOException naming(Path file, IOException e) {
    if (e instanceof FileSystemException || e.getMessage() == null || !e.getMessage().contains(REASON)) return e;
    FileSystemException named = new FileSystemException(file.toString(), null, e.getMessage());
    named.initCause(e);
    return named;
  }
}
