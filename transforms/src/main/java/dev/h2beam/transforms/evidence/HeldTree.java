package dev.h2beam.transforms.evidence;

import dev.h2beam.adapters.files.Hashes;
import dev.h2beam.adapters.files.PathOrder;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.security.MessageDigest;
import java.util.Arrays;
import java.util.List;
import java.util.Set;

/**
 * A tree's listed files read once, so that one read serves both a digest over the tree and a copy of it. A session's
 * evidence used to be read whole for the reply-cache key and then read again by the JDK's copy, which also set the
 * copy's owner, mode, times and extended attributes one system call each: about seventeen calls a file for every
 * session, where this takes seven. Files are held up to {@link #BUDGET} bytes in all (evidence is small text; a huge
 * deliverable is not held), and a file that cannot be read is not held either: both are read again where they are
 * used, so an unreadable file fails the copy and marks the digest as it always did.
 */
public final class HeldTree {
  /**
   * Bytes held at most for one tree (a stage holds its evidence for as long as its session runs, and every chain runs
   * one stage at a time); the files past it are streamed as before.
   */
  static final long BUDGET = 8L << 20;

  private final Path root;
  private final PathOrder.Listing listing;
  private final byte[][] bytes;
  private final Set<PosixFilePermission>[] modes;

  private HeldTree(Path root, PathOrder.Listing listing, byte[][] bytes, Set<PosixFilePermission>[] modes) {
    this.root = root;
    this.listing = listing;
    this.bytes = bytes;
    this.modes = modes;
  }

  /** Reads the files of {@code listing} (made of {@code root}) in its order, while they fit in the budget. */
  public static HeldTree read(Path root, PathOrder.Listing listing) {
    return read(root, listing, BUDGET);
  }

  /** The same with a budget of its own (0: nothing held, every file streamed where it is used). */
  @SuppressWarnings("unchecked")
  public static HeldTree read(Path root, PathOrder.Listing listing, long budget) {
    List<String> files = listing.files();
    byte[][] bytes = new byte[files.size()][];
    Set<PosixFilePermission>[] modes = new Set[files.size()];
    long left = budget;
    for (int i = 0; i < files.size(); i++) {
      Path file = root.resolve(files.get(i));
      try {
        // the mode first: the copy is made with it, as the JDK's copy makes a file with its source's mode
        Set<PosixFilePermission> mode = Files.getPosixFilePermissions(file, LinkOption.NOFOLLOW_LINKS);
        byte[] b = readUpTo(file, left);
        if (b == null) continue;
        bytes[i] = b;
        modes[i] = mode;
        left -= b.length;
      } catch (IOException | UnsupportedOperationException e) {
        // not held: read again where it is used, which reports the failure as it always did
      }
    }
    return new HeldTree(root, listing, bytes, modes);
  }

  /** The whole file, or null when it holds more than {@code limit} bytes (a file still growing included). */
  private static byte[] readUpTo(Path file, long limit) throws IOException {
    try (SeekableByteChannel in = Files.newByteChannel(file)) {
      long size = in.size();
      if (size > limit) return null;
      ByteBuffer buf = ByteBuffer.allocate((int) size);
      while (buf.hasRemaining() && in.read(buf) >= 0) {
        // a short read: read on
      }
      // past the size the file had when opened: another byte means it grew, and it is then streamed where used
      if (in.read(ByteBuffer.allocate(1)) > 0) return null;
      return buf.hasRemaining() ? Arrays.copyOf(buf.array(), buf.position()) : buf.array();
    }
  }

  public Path root() {
    return root;
  }

  public PathOrder.Listing listing() {
    return listing;
  }

  public List<String> files() {
    return listing.files();
  }

  /** Whether the {@code i}-th file's bytes are held. */
  boolean held(int i) {
    return bytes[i] != null;
  }

  /** Feeds the {@code i}-th file's bytes to {@code digest}: the held bytes, or the file streamed from disk. */
  public void update(MessageDigest digest, int i) throws IOException {
    if (bytes[i] != null) {
      digest.update(bytes[i]);
    } else {
      Hashes.update(digest, root.resolve(files().get(i)));
    }
  }

  /** Copies the tree into {@code to} as {@link FileTrees#copy(Path, Path, PathOrder.Listing)} does. */
  public void copyTo(Path to) throws IOException {
    FileTrees.copy(this, to);
  }

  /** The held bytes of the {@code i}-th file, or null when it is not held. */
  byte[] bytes(int i) {
    return bytes[i];
  }

  Set<PosixFilePermission> mode(int i) {
    return modes[i];
  }
}
