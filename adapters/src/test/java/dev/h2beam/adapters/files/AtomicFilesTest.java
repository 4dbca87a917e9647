package dev.h2beam.adapters.files;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Atomic writes leave whole files, readable by others as the umask allows, and no temp file behind. */
class AtomicFilesTest {

  @Test
  void aWrittenFileHasThePermissionsOfAnyNewFileNotOwnerOnly(@TempDir Path dir) throws Exception {
    Path normal = Files.writeString(dir.resolve("normal.txt"), "x");
    Path atomic = dir.resolve("sub/atomic.json");
    AtomicFiles.writeString(atomic, "{}");
    Set<PosixFilePermission> expected = Files.getPosixFilePermissions(normal);
    assertEquals(expected, Files.getPosixFilePermissions(atomic));
    assertTrue(expected.contains(PosixFilePermission.OTHERS_READ), "the usual umask 022 lets others read: "
        + expected);
    AtomicFiles.writeString(atomic, "{\"a\": 1}");
    assertEquals(expected, Files.getPosixFilePermissions(atomic), "a replaced file too");
    assertEquals("{\"a\": 1}", Files.readString(atomic));
    try (Stream<Path> s = Files.list(atomic.getParent())) {
      assertEquals(List.of("atomic.json"), s.map(p -> p.getFileName().toString()).toList(), "no temp file left");
    }
  }

  @Test
  void anOwnerOnlyStreamedFileIsNeverReadableByOthersAndAFailedBodyKeepsTheOldFile(@TempDir Path dir)
      throws Exception {
    Path f = dir.resolve("restricted.json");
    AtomicFiles.write(f, true, out -> out.write("x".repeat(200_000).getBytes(StandardCharsets.UTF_8)));
    assertEquals(200_000, Files.size(f), "a body larger than the buffer arrives whole");
    assertEquals(Set.of(PosixFilePermission.OWNER_READ, PosixFilePermission.OWNER_WRITE),
        Files.getPosixFilePermissions(f));
    IOException thrown = assertThrows(IOException.class, () -> AtomicFiles.write(f, true, out -> {
      out.write("partial".getBytes(StandardCharsets.UTF_8));
      throw new IOException("disk full");
    }));
    assertEquals("disk full", thrown.getMessage());
    assertThrows(IllegalStateException.class, () -> AtomicFiles.write(f, false, out -> {
      throw new IllegalStateException("a bug in the body");
    }));
    assertEquals(200_000, Files.size(f), "the previous complete file stays");
    try (Stream<Path> s = Files.list(dir)) {
      assertEquals(List.of("restricted.json"), s.map(p -> p.getFileName().toString()).toList(), "no temp file left");
    }
  }

  /** A full disk fails a write without naming the file; the failure names the target and leaves no temp file. */
  @Test
  void aFullDiskNamesTheFileBeingWritten(@TempDir Path dir) throws Exception {
    Path f = dir.resolve("summary.agg.json");
    java.nio.file.FileSystemException e = assertThrows(java.nio.file.FileSystemException.class,
        () -> AtomicFiles.write(f, false, out -> {
          out.write('{');
          throw new IOException(DiskFull.REASON);
        }));
    assertEquals(f.toString(), e.getFile());
    assertEquals("could not write " + f + " (No space left on device): free space and re-run the same command;"
        + " finished work is kept and resumed", DiskFull.line(new RuntimeException(e)).orElseThrow());
    try (Stream<Path> s = Files.list(dir)) {
      assertEquals(List.of(), s.toList());
    }
    // dogX F7, F8: a file system remounted read-only and a process out of file handles are the machine's state
    // too, told in one line with what to do, not a runner's stack trace or a missing program
    assertEquals("could not write " + f + " (Read-only file system): the file system is read-only (remounted so"
        + " after an error?); make it writable and re-run the same command; finished work is kept and resumed",
        DiskFull.line(new RuntimeException(new java.nio.file.FileSystemException(f.toString(), null,
            "Read-only file system"))).orElseThrow());
    assertEquals("failed (Too many open files): this process ran out of file handles; raise the limit (ulimit -n,"
        + " 4096 or more) and re-run the same command; finished work is kept and resumed", DiskFull.line(
            new IllegalStateException(new IOException("Cannot run program \"sh\": error=24, Too many open files")))
        .orElseThrow());
    // storage that takes no more writes stops a chain (a full disk, a read-only mount); file handles do not
    assertTrue(DiskFull.storage(new RuntimeException(e)));
    assertTrue(DiskFull.storage(new java.io.UncheckedIOException(new IOException("Read-only file system"))));
    assertFalse(DiskFull.storage(new IOException("Too many open files")));
    IOException other = assertThrows(IOException.class, () -> AtomicFiles.write(f, false, out -> {
      throw new IOException("Input/output error");
    }));
    assertFalse(other instanceof java.nio.file.FileSystemException, "other failures are passed on as they are");
  }

  @Test
  void createIfAbsentNeverReplacesAFile(@TempDir Path dir) throws Exception {
    Path f = dir.resolve("a/b.txt");
    assertTrue(AtomicFiles.createIfAbsent(f, "first"));
    assertFalse(AtomicFiles.createIfAbsent(f, "second"));
    assertEquals("first", Files.readString(f));
    assertEquals(Files.getPosixFilePermissions(Files.writeString(dir.resolve("n"), "")),
        Files.getPosixFilePermissions(f));
  }
}
