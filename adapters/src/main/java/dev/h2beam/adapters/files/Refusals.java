package dev.h2beam.adapters.files;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;

/**
 * The system refusing this user a file, as the messages for a runs root shared by several users name it: whether a
 * failure is such a refusal, and whose the file is.
 */
public final class Refusals {
  private Refusals() {}

  /** Whether {@code e} is the system's refusal of this user (EACCES, EPERM), not a failure of the file system. */
  public static boolean refused(FileSystemException e) {
    return e instanceof AccessDeniedException || "Operation not permitted".equals(e.getReason());
  }

  /** {@code user NAME}, the owner of {@code p} (a link itself, not followed); {@code unknown} when not known. */
  public static String owner(Path p, String unknown) {
    try {
      return "user " + Files.getOwner(p, LinkOption.NOFOLLOW_LINKS).getName();
    } catch (IOException | UnsupportedOperationException | SecurityException e) {
      return unknown;
    }
  }
}
