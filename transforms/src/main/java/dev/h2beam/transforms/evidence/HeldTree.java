package dev.h2beam.transforms.evidence;

import dev.h2beam.adapters.files.Hashes;
import dev.h2beam.adapters.files.PathOrder;
import dev.h2beam.adapters.proposer.EvidenceView;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
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
  /**
   * Where each file is read when it is not held: null for every file under the root, else the file's own path for the
   * files a {@link ShownLibrary} holds (they are not under the root, and were checked where they were read).
   */
  private final Path[] elsewhere;

  private HeldTree(Path root, PathOrder.Listing listing, byte[][] bytes, Set<PosixFilePermission>[] modes,
      Path[] elsewhere) {
    this.root = root;
    this.listing = listing;
    this.bytes = bytes;
    this.modes = modes;
    this.elsewhere = elsewhere;
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
      if (hold(root.resolve(files.get(i)), left, bytes, modes, i)) left -= bytes[i].length;
    }
    return new HeldTree(root, listing, bytes, modes, null);
  }

  /** One file of another tree, given as a file of this one. */
  record From(HeldTree tree, int index) {}

  /**
   * A tree this process has just written, as {@link #read} would read it: {@code written} has the bytes of the files
   * it wrote (what {@link SharedText} wrote or linked, and the linked files of a harness it wrote) and null for the
   * other files it linked, which are read from disk.
   * Every written file has the mode this process gives a new file, read once from the first of them; where that
   * cannot be read, the written files are read from disk too. The files in {@code shown} are not under the root: each
   * is taken as the other tree holds it (its bytes are not counted against this tree's budget), and read from where
   * that tree reads it when not held.
   */
  @SuppressWarnings("unchecked")
  static HeldTree written(Path root, PathOrder.Listing listing, Map<String, byte[]> written,
      Map<String, From> shown) {
    List<String> files = listing.files();
    Set<PosixFilePermission> textMode = null;
    for (String rel : files) {
      if (written.get(rel) == null) continue;
      try {
        textMode = Files.getPosixFilePermissions(root.resolve(rel), LinkOption.NOFOLLOW_LINKS);
      } catch (IOException | UnsupportedOperationException e) {
        textMode = null;
      }
      break;
    }
    byte[][] bytes = new byte[files.size()][];
    Set<PosixFilePermission>[] modes = new Set[files.size()];
    Path[] elsewhere = shown.isEmpty() ? null : new Path[files.size()];
    long left = BUDGET;
    for (int i = 0; i < files.size(); i++) {
      From from = shown.get(files.get(i));
      if (from != null) {
        bytes[i] = from.tree().bytes[from.index()];
        modes[i] = from.tree().modes[from.index()];
        elsewhere[i] = from.tree().source(from.index());
        continue;
      }
      byte[] text = written.get(files.get(i));
      if (text == null || textMode == null) {
        if (hold(root.resolve(files.get(i)), left, bytes, modes, i)) left -= bytes[i].length;
      } else if (text.length <= left) {
        bytes[i] = text;
        modes[i] = textMode;
        left -= text.length;
      }
    }
    return new HeldTree(root, listing, bytes, modes, elsewhere);
  }

  /**
   * Reads {@code file} into the {@code i}-th place when it holds at most {@code limit} bytes and can be read; false
   * otherwise (it is then read again where it is used, which reports a failure as it always did).
   */
  private static boolean hold(Path file, long limit, byte[][] bytes, Set<PosixFilePermission>[] modes, int i) {
    try {
      // the mode first: the copy is made with it, as the JDK's copy makes a file with its source's mode
      Set<PosixFilePermission> mode = Files.getPosixFilePermissions(file, LinkOption.NOFOLLOW_LINKS);
      byte[] b = readUpTo(file, limit);
      if (b == null) return false;
      bytes[i] = b;
      modes[i] = mode;
      return true;
    } catch (IOException | UnsupportedOperationException e) {
      return false;
    }
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

  /**
   * The same files at {@code other}, a folder that holds them as they are here: a linked copy of this tree, made from
   * its listing. Nothing is read again; a file not held is read from {@code other} where it is used.
   */
  public HeldTree at(Path other) {
    return new HeldTree(other, listing, bytes, modes, elsewhere);
  }

  /** Where the {@code i}-th file is read when it is not held. */
  Path source(int i) {
    return elsewhere == null || elsewhere[i] == null ? root.resolve(files().get(i)) : elsewhere[i];
  }

  /** Whether the {@code i}-th file is another tree's, not under the root (a {@link ShownLibrary}'s). */
  boolean shown(int i) {
    return elsewhere != null && elsewhere[i] != null;
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
      Hashes.update(digest, source(i));
    }
  }

  /** Copies the tree into {@code to} as {@link FileTrees#copy(Path, Path, PathOrder.Listing)} does. */
  public void copyTo(Path to) throws IOException {
    FileTrees.copy(this, to, "");
  }

  /**
   * Copies only the files below the folder {@code under} (relative, '/'-separated, e.g. {@code harness}) into the
   * same place under {@code to}, which is made even when there are none.
   */
  public void copyTo(Path to, String under) throws IOException {
    FileTrees.copy(this, to, under.isEmpty() || under.endsWith("/") ? under : under + "/");
  }

  /**
   * The tree as a session's {@link EvidenceView}: the files a {@linkplain #copyTo copy} holds (no {@code .pyc}
   * file), each read from the held bytes or else from where the tree reads it.
   */
  public EvidenceView view() {
    List<String> shown = new ArrayList<>(files().size());
    Map<String, Integer> index = new HashMap<>();
    for (int i = 0; i < files().size(); i++) {
      String rel = files().get(i);
      if (FileTrees.copied(rel)) {
        shown.add(rel);
        index.put(rel, i);
      }
    }
    List<String> listed = Collections.unmodifiableList(shown);
    return new EvidenceView() {
      @Override public List<String> files() {
        return listed;
      }

      @Override public Map<String, String> skipped() {
        return Map.of();
      }

      @Override public long size(String rel) throws IOException {
        int i = at(rel);
        return bytes[i] != null ? bytes[i].length : Files.size(source(i));
      }

      @Override public InputStream open(String rel) throws IOException {
        int i = at(rel);
        return bytes[i] != null ? new ByteArrayInputStream(bytes[i])
            : Files.newInputStream(source(i), LinkOption.NOFOLLOW_LINKS);
      }

      @Override public boolean has(String rel) {
        return index.containsKey(rel);
      }

      private int at(String rel) throws IOException {
        Integer i = index.get(rel);
        if (i == null) throw new IOException(rel + " is not a file of the evidence in " + root);
        return i;
      }
    };
  }

  /** The held bytes of the {@code i}-th file, or null when it is not held. */
  byte[] bytes(int i) {
    return bytes[i];
  }

  Set<PosixFilePermission> mode(int i) {
    return modes[i];
  }

  /**
   * Whether each held file has the bytes and mode its source has now, every file not held can be read, and the files
   * under the root are what {@link PathOrder#list} finds there: the check (under assertions) that a tree built in
   * memory is what the disk holds.
   */
  boolean matchesDisk() {
    List<String> own = new ArrayList<>();
    for (int i = 0; i < bytes.length; i++) {
      if (!shown(i)) own.add(files().get(i));
      try {
        Set<PosixFilePermission> mode = Files.getPosixFilePermissions(source(i), LinkOption.NOFOLLOW_LINKS);
        byte[] now = Files.readAllBytes(source(i));
        if (bytes[i] != null && (!Arrays.equals(bytes[i], now) || !mode.equals(modes[i]))) return false;
      } catch (IOException | UnsupportedOperationException e) {
        return false;
      }
    }
    return own.equals(PathOrder.list(root).files());
  }

  /** The same files in the same order, each held or not alike, with the same bytes and mode when held. */
  boolean sameAs(HeldTree other) {
    // the files and skipped entries: bare folders hold no file, and a tree placed by name never lists them
    if (!listing.files().equals(other.listing.files()) || !listing.skipped().equals(other.listing.skipped())) {
      return false;
    }
    for (int i = 0; i < bytes.length; i++) {
      if (!Arrays.equals(bytes[i], other.bytes[i]) || !Objects.equals(modes[i], other.modes[i])) return false;
    }
    return true;
  }
}
