package dev.h2beam.adapters.files;

import java.io.IOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;

/** Folder trees a benchmark owns (rollout folders it wipes before rolling again). */
public final class Trees {
  private Trees() {}

  /** Deletes a file or folder tree without following links out of it; a missing path is fine. */
  public static void delete(Path p) throws IOException {
    WrittenTrees.forget(p);
    if (!Files.exists(p, LinkOption.NOFOLLOW_LINKS)) return;
    Files.walkFileTree(p, new SimpleFileVisitor<>() {
      @Override public FileVisitResult visitFile(Path f, BasicFileAttributes a) throws IOException {
        Files.delete(f);
        return FileVisitResult.CONTINUE;
      }

      @Override public FileVisitResult postVisitDirectory(Path d, IOException e) throws IOException {
        if (e != null) throw e;
        Files.delete(d);
        return FileVisitResult.CONTINUE;
      }
    });
  }
}
