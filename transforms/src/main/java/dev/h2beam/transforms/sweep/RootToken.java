package dev.h2beam.transforms.sweep;

import dev.h2beam.adapters.files.AtomicFiles;
import dev.h2beam.adapters.files.WriterLock;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.UUID;

/**
 * Proof that a worker sees the runs root the client wrote. Workers of a cluster must all read and write one folder on
 * a shared file system; a worker with another folder (or nothing) at the same path would run tasks whose results
 * nobody else sees, and re-spend them on resume. The client writes a fresh token under the runs root before the job;
 * every worker reads it back before it does anything and refuses, naming the path and itself, when it differs or when
 * it cannot write there.
 */
public final class RootToken {
  private RootToken() {}

  /** Where the token lives under a runs root. */
  public static Path file(Path runsRoot) {
    return runsRoot.resolve(".h2beam").resolve("root-token");
  }

  /** Writes a fresh token under the runs root (the client, holding the runs root's writer lock) and returns it. */
  public static String write(Path runsRoot) throws IOException {
    String token = fresh();
    write(runsRoot, token);
    return token;
  }

  /** A new token, for a run that writes it later ({@link #write(Path, String)}). */
  public static String fresh() {
    return UUID.randomUUID().toString();
  }

  /** Writes {@code token} under the runs root (the client, holding the runs root's writer lock). */
  public static void write(Path runsRoot, String token) throws IOException {
    Path own = file(runsRoot).getParent();
    Files.createDirectories(own);
    // a worker killed between making and removing its write probe left it; no worker of another job runs now
    try (DirectoryStream<Path> probes = Files.newDirectoryStream(own, PROBE + "*")) {
      for (Path p : probes) Files.deleteIfExists(p);
    }
    AtomicFiles.writeString(file(runsRoot), token + "\n");
  }

  /** How a worker's write probe is named, beside the token. */
  private static final String PROBE = "write-probe-";

  /** The token the last run under this runs root wrote, or "" when there is none to read. */
  public static String read(Path runsRoot) {
    try {
      return Files.readString(file(runsRoot), StandardCharsets.UTF_8).strip();
    } catch (IOException e) {
      return "";
    }
  }

  /** Refuses a worker that does not see {@code token} under its runs root; an empty token checks nothing. */
  public static void check(Path runsRoot, String token) {
    if (token == null || token.isEmpty()) return;
    Path f = file(runsRoot);
    String seen;
    try {
      seen = Files.readString(f, StandardCharsets.UTF_8).strip();
    } catch (NoSuchFileException e) {
      seen = null;
    } catch (IOException e) {
      seen = "unreadable (" + e.getMessage() + ")";
    }
    if (!token.equals(seen)) {
      throw new IllegalStateException(WriterLock.worker() + " does not see the runs root the"
          + " client wrote: " + f + (seen == null ? " does not exist there" : " holds another run's token")
          + ". Every worker must mount the same shared file system at " + runsRoot + " (give --runsRoot a path every"
          + " worker shares)");
    }
    requireWritable(runsRoot, f.resolveSibling(PROBE + fresh()));
  }

  /**
   * Refuses a worker that sees the runs root but cannot write it (mounted read-only there, say): it would fail its
   * first task's first write, and Flink would restart the job for it until its restart strategy was spent (dogAC F8).
   * The probe is created and removed in h2beam's own folder under the root.
   */
  private static void requireWritable(Path runsRoot, Path probe) {
    try {
      Files.writeString(probe, "", StandardOpenOption.CREATE_NEW);
      Files.delete(probe);
    } catch (IOException e) {
      String why = e instanceof FileSystemException fs && fs.getReason() != null ? fs.getReason()
          : e.getClass().getSimpleName() + ": " + e.getMessage();
      throw new IllegalStateException(WriterLock.worker() + " sees the runs root the client wrote but cannot write"
          + " it: " + probe + " (" + why + "). Every worker must be able to write " + runsRoot + " (a read-only"
          + " mount there, or a user without write permission?); make it writable and re-run the same command");
    }
  }
}
