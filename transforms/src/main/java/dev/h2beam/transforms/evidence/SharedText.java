package dev.h2beam.transforms.evidence;

import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Writes an evidence text once per content: the stages of a task render the same rollouts, deliverables, decisions,
 * pool texts and task prompt again and again (harness2 writes each copy, about 7,100 files per task), so a text this
 * process wrote recently is hard-linked instead of written again. Safe because evidence is immutable once built: it
 * is rebuilt by deleting and recreating its folder, and a session gets a copy of it, never the files themselves.
 * Before linking, the earlier file is read back and compared the first time and checked for the same identity after
 * that ({@link FileMark}), so a path that now holds other bytes is never linked; a link that cannot be made (another
 * file system, a file gone) falls back to writing.
 */
final class SharedText {
  private SharedText() {}

  /**
   * Where a text was written, and once it was read back and found the same, the {@link FileMark} that file had then.
   * A later link checks that mark, one system call, instead of reading the file again (two-fifths of the texts' cost,
   * BENCHMARKS.md, issue 11); a file replaced or written since has another mark and is read back again. A null mark:
   * not yet read back.
   */
  private record Prior(Path path, FileMark mark) {}

  /**
   * A text as a key: its bytes themselves, compared whole, so two texts share a file only when they are the same
   * bytes. Hashing each with SHA-256 to key it cost more than the comparison of the few that share a hash code.
   */
  private record Text(byte[] bytes, int hash) {
    static Text of(byte[] bytes) {
      return new Text(bytes, Arrays.hashCode(bytes));
    }

    @Override public boolean equals(Object o) {
      return o instanceof Text t && hash == t.hash && Arrays.equals(bytes, t.bytes);
    }

    @Override public int hashCode() {
      return hash;
    }
  }

  /**
   * Recent texts; bounded in number and in bytes held, so a long sweep keeps only what its current tasks can still
   * share, and no more memory than that.
   */
  private static final int MAX = 4096;
  private static final long MAX_BYTES = 32L << 20;
  private static final LinkedHashMap<Text, Prior> SEEN = new LinkedHashMap<>(256, 0.75f, true);
  /** The bytes of the texts in {@link #SEEN}. */
  private static long held;

  /** Notes {@code text} as written at {@code prior}'s path, the oldest ones let go past the bounds. Under SEEN. */
  private static void note(Text text, Prior prior) {
    Prior before = SEEN.put(text, prior);
    if (before == null) held += text.bytes().length;
    for (var it = SEEN.entrySet().iterator(); it.hasNext() && (SEEN.size() > MAX || held > MAX_BYTES); ) {
      Map.Entry<Text, Prior> eldest = it.next();
      if (eldest.getKey() == text) break;
      held -= eldest.getKey().bytes().length;
      it.remove();
    }
  }

  /** Lets go of every text whose place {@code gone} says is gone. Under SEEN. */
  private static void forgetWhere(java.util.function.Predicate<Path> gone) {
    for (var it = SEEN.entrySet().iterator(); it.hasNext(); ) {
      Map.Entry<Text, Prior> e = it.next();
      if (gone.test(e.getValue().path())) {
        held -= e.getKey().bytes().length;
        it.remove();
      }
    }
  }

  /**
   * Writes {@code bytes} at {@code file}, whose folder exists. The bytes are kept as given, as the key of their text:
   * the caller never changes them after. {@code fresh}: the caller made the folder empty and put
   * nothing at this name yet, so there is no earlier file to remove first (were there one after all, the write below
   * refuses to open it, and it is removed then); otherwise a file already there is removed first.
   */
  static void write(Path file, byte[] bytes, boolean fresh) throws IOException {
    // a file already here may be a link to shared bytes: replace the name, never the bytes behind it
    if (!fresh) replace(file);
    Text key = Text.of(bytes);
    Prior prior;
    synchronized (SEEN) {
      prior = SEEN.get(key);
    }
    if (prior != null && same(key, prior, bytes)) {
      try {
        Files.createLink(file, prior.path());
        return;
      } catch (FileAlreadyExistsException e) {
        replace(file);
        try {
          Files.createLink(file, prior.path());
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
      replace(file);
      Files.write(file, bytes, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
    }
    synchronized (SEEN) {
      note(key, new Prior(file, null));
    }
  }

  /**
   * Removes {@code file} to write another text there, and forgets it as the place of the text it held: a new file at
   * the same name can get the freed inode back, with the same size and time.
   */
  private static void replace(Path file) throws IOException {
    Files.deleteIfExists(file);
    synchronized (SEEN) {
      forgetWhere(file::equals);
    }
  }

  /**
   * Forgets every text placed below {@code folder}, which is about to be deleted and built again: the files made there
   * next can get the freed inodes back. Seldom (a stage built again in the same process), so a scan will do.
   */
  static void forgetBelow(Path folder) {
    synchronized (SEEN) {
      forgetWhere(p -> p.startsWith(folder));
    }
  }

  /**
   * Whether {@code prior} still holds {@code bytes}: its identity as last read back, or else its bytes read back now
   * (and that identity noted for the next link).
   */
  private static boolean same(Text key, Prior prior, byte[] bytes) {
    try {
      BasicFileAttributes now = Files.readAttributes(prior.path(), BasicFileAttributes.class,
          LinkOption.NOFOLLOW_LINKS);
      FileMark mark = FileMark.of(now);
      if (mark != null && mark.equals(prior.mark())) return true;
      if (!now.isRegularFile() || now.size() != bytes.length
          || !Arrays.equals(Files.readAllBytes(prior.path()), bytes)) {
        return false;
      }
      synchronized (SEEN) {
        if (SEEN.get(key) == prior) note(key, new Prior(prior.path(), mark));
      }
      return true;
    } catch (IOException e) {
      return false;
    }
  }
}
