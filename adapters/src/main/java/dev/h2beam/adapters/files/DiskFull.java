package dev.h2beam.adapters.files;

import java.io.IOException;
import java.nio.file.FileSystemException;
import java.nio.file.Path;
import java.util.Optional;

/**
 * A failure that is a full disk (ENOSPC), a file system made read-only (EROFS) or a process out of file handles
 * (EMFILE): no bug of h2beam's, so it is told in one line, naming the file that could not be written and what to do
 * before running the command again, which resumes. The JDK reports it with the system's message, often without the
 * file (a write to an open stream): writes that know their file name it ({@link #naming}).
 */
public final class DiskFull {
  private DiskFull() {}

  /** The system's message for ENOSPC. */
  public static final String REASON = "No space left on device";

  /** The system's message for EROFS. */
  public static final String READ_ONLY = "Read-only file system";

  /** The system's message for EMFILE. */
  public static final String TOO_MANY_FILES = "Too many open files";

  /**
   * Whether {@code e}, or any of its causes, is storage that takes no more writes: a full disk or a read-only file
   * system. A chain stops at it (what comes after would be written on a library and evidence missing what failed).
   */
  public static boolean storage(Throwable e) {
    String r = reason(e).reason();
    return REASON.equals(r) || READ_ONLY.equals(r);
  }

  /** The machine's state {@code e} or a cause of it reports (the first met), and the file it names, if any. */
  private record State(String reason, String file) {}

  private static State reason(Throwable e) {
    String reason = Causes.find(e, t -> reasonOf(t) != null).map(DiskFull::reasonOf).orElse(null);
    // the file: the first that one of the failures reporting such a state names, which may be a later one
    String file = Causes.find(e, FileSystemException.class, f -> reasonOf(f) != null && f.getFile() != null)
        .map(FileSystemException::getFile).orElse(null);
    return new State(reason, file);
  }

  /** The machine's state {@code t} itself (not its causes) reports, by its message; null for none. */
  private static String reasonOf(Throwable t) {
    String m = t.getMessage();
    if (m == null) return null;
    return m.contains(REASON) ? REASON : m.contains(READ_ONLY) ? READ_ONLY : m.contains(TOO_MANY_FILES)
        ? TOO_MANY_FILES : null;
  }

  /**
   * The line for {@code e} when it, or any of its causes, is a full disk, a file system made read-only, or this
   * process out of file handles (each the machine's state, no bug: one line, no trace); empty for any other failure.
   */
  public static Optional<String> line(Throwable e) {
    State state = reason(e);
    String reason = state.reason();
    String file = state.file();
    if (reason == null) return Optional.empty();
    String what = (file == null ? (reason.equals(REASON) ? "ran out of disk space (" : "failed (")
        : (reason.equals(TOO_MANY_FILES) ? "could not open " : "could not write ") + file + " (") + reason + "): ";
    return Optional.of(what + switch (reason) {
      case REASON -> "free space and re-run the same command";
      case READ_ONLY -> "the file system is read-only (remounted so after an error?); make it writable and re-run the"
          + " same command";
      default -> "this process ran out of file handles; raise the limit (ulimit -n, 4096 or more) and re-run the"
          + " same command";
    } + "; finished work is kept and resumed");
  }

  /** {@code e} naming {@code file} when it is a full disk that does not name its file; else {@code e} itself. */
  public static IOException naming(Path file, IOException e) {
    if (e instanceof FileSystemException || e.getMessage() == null || !e.getMessage().contains(REASON)) return e;
    FileSystemException named = new FileSystemException(file.toString(), null, e.getMessage());
    named.initCause(e);
    return named;
  }
}
