package dev.h2beam.transforms.evidence;

import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;

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
}
