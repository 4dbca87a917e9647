package dev.h2beam.transforms.evidence;

import dev.h2beam.adapters.files.Hashes;
import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Writes an evidence text once per content: the stages of a task render the same rollouts, deliverables, decisions,
 * pool texts and task prompt again and again (harness2 writes each copy, about 7,100 files per task), so a text this
 * process wrote recently is hard-linked instead of written again. Safe because evidence is immutable once built: it
 * is rebuilt by deleting and recreating its folder, and a session gets a copy of it, never the files themselves.
 * Before linking, the earlier file is read back and compared, so a path that now holds other bytes is never linked;
 * a link that cannot be made (another file system, a file gone) falls back to writing.
 */
final class SharedText {
  private SharedText() {}

  /** Recent texts by digest; bounded, so a long sweep keeps only what its current tasks can still share. */
  private static final int MAX = 4096;
  private static final Map<String, Path> SEEN = new LinkedHashMap<>(256, 0.75f, true) {
    private static final long serialVersionUID = 1L;

    @Override protected boolean removeEldestEntry(Map.Entry<String, Path> eldest) {
      return size() > MAX;
    }
  };

  /**
   * Writes {@code bytes} at {@code file}, whose folder exists. {@code fresh}: the caller made the folder empty and put
   * nothing at this name yet, so there is no earlier file to remove first (were there one after all, the write below
   * refuses to open it, and it is removed then); otherwise a file already there is removed first.
   */
  static void write(Path file, byte[] bytes, boolean fresh) throws IOException {
    // a file already here may be a link to shared bytes: replace the name, never the bytes behind it
    if (!fresh) Files.deleteIfExists(file);
    String key = Hashes.hex(Hashes.digest("SHA-256").digest(bytes));
    Path prior;
    synchronized (SEEN) {
      prior = SEEN.get(key);
    }
    if (prior != null && same(prior, bytes)) {
      try {
        Files.createLink(file, prior);
        return;
      } catch (FileAlreadyExistsException e) {
        Files.deleteIfExists(file);
        try {
          Files.createLink(file, prior);
          return;
        } catch (IOException | UnsupportedOperationException again) {
          // written below
        }
      } catch (IOException | UnsupportedOperationException e) {
        // another file system, or the file went between the check and the link: write it
      }
    }
    try {
      Files.write(file, bytes, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
    } catch (FileAlreadyExistsException e) {
      Files.deleteIfExists(file);
      Files.write(file, bytes, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
    }
    synchronized (SEEN) {
      SEEN.put(key, file);
    }
  }

  private static boolean same(Path prior, byte[] bytes) {
    try {
      return Files.size(prior) == bytes.length && Arrays.equals(Files.readAllBytes(prior), bytes);
    } catch (IOException e) {
      return false;
    }
  }
}
