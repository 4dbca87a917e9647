package dev.h2beam.transforms.evidence;

import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.util.Objects;

/**
 * A file's identity as one look at it tells: its file key (device and inode), size and modification time. A file this
 * process wrote and nobody edits keeps it; a file replaced or written since shows another one, so a mark taken when a
 * file's content was known tells, one system call later, whether that content may be taken as still there ({@link
 * SharedText}, {@link RolloutTexts}). Null where the file system gives no file key: nothing can be told then.
 */
record FileMark(Object fileKey, long size, FileTime modified) {
  static FileMark of(BasicFileAttributes a) {
    return a.fileKey() == null ? null : new FileMark(a.fileKey(), a.size(), a.lastModifiedTime());
  }

  // written out: a record's own equality links a method-handle chain on first use and runs through it after (half a
  // percent of an L = 0 sweep's samples, one comparison per evidence text linked; BENCHMARKS.md, issue 11)
  @Override public boolean equals(Object o) {
    return o instanceof FileMark m && size == m.size && Objects.equals(fileKey, m.fileKey)
        && Objects.equals(modified, m.modified);
  }

  @Override public int hashCode() {
    return (Objects.hashCode(fileKey) * 31 + Long.hashCode(size)) * 31 + Objects.hashCode(modified);
  }
}
