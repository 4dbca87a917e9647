package dev.h2beam.transforms.proposer;

import dev.h2beam.adapters.files.Uninterruptible;
import java.io.IOException;
import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Append-only JSON-lines journals ({@code sessions.jsonl}, {@code executions.jsonl}) that record every session and
 * every execution actually run, so anyone can prove that nothing ran twice.
 *
 * <p>One writer per file: each process appends to its own file beside the journal's name
 * ({@code sessions.<host>-<pid>.jsonl}), so workers of a cluster never append to one file over a network file
 * system; {@link #lines} reads them all (and a journal written whole by an older h2beam). Appends are serialised
 * within the process, locked against a second command on the same host, and finished even when the runner is
 * cancelling the appending thread ({@link Uninterruptible}).
 *
 * <p>Every record carries {@code held}: one {@link #held interval} per time it held a slot of its limit (a session
 * per attempt, a rollout once), taken inside the slot, so that the records of all workers together show how many
 * sessions or rollouts the whole job had in flight at any instant.
 */
public final class Journal {
  private Journal() {}

  private static final String WRITER = writerName();

  /** Serialises this process's appends; taken inside the uninterruptible block (see {@link #append}). */
  private static final Object APPENDS = new Object();

  /**
   * Appends one record. The record counts as being written from this call on, not from when the process-wide lock is
   * free: an exiting process waits for every record being written ({@link Uninterruptible}), and one that waited
   * for the lock outside that count was lost when a crash exited the process while another append held the lock (a
   * rollout marked complete, then never journalled, and reused by the resume).
   */
  public static void append(Path journal, String line) throws IOException {
    Path file = ownFile(journal);
    Uninterruptible.run(() -> {
      synchronized (APPENDS) {
        appendLocked(file, line);
      }
    });
  }

  private static void appendLocked(Path file, String line) throws IOException {
    Files.createDirectories(file.toAbsolutePath().getParent());
    // not APPEND, which excludes READ: under the lock this is the only writer, and it writes at the end
    try (FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.READ,
        StandardOpenOption.WRITE);
        FileLock lock = ch.lock()) {
      // a writer killed mid-append leaves a line without its newline; end it first, so the torn line stays a line
      // of its own (one unreadable record) and this record is not glued onto it and lost
      String prefix = endsTorn(ch) ? "\n" : "";
      ByteBuffer bytes = ByteBuffer.wrap((prefix + line + "\n").getBytes(StandardCharsets.UTF_8));
      long at = ch.size();
      while (bytes.hasRemaining()) at += ch.write(bytes, at);
    }
  }

  /**
   * One interval a record held a slot of its limit: {@code started_at} read after the slot was taken, {@code ended_at}
   * before it was given back (ISO-8601 instants of this host's clock), so intervals of one limit that overlap were in
   * flight together.
   */
  public static Map<String, String> held(Instant started, Instant ended) {
    Map<String, String> m = new LinkedHashMap<>();
    m.put("started_at", started.toString());
    m.put("ended_at", ended.toString());
    return m;
  }

  /** The file this process appends to for {@code journal}. */
  public static Path ownFile(Path journal) {
    return journal.resolveSibling(stem(journal) + "." + WRITER + ".jsonl");
  }

  private static boolean endsTorn(FileChannel ch) throws IOException {
    long size = ch.size();
    if (size == 0) return false;
    ByteBuffer last = ByteBuffer.allocate(1);
    ch.read(last, size - 1);
    return last.get(0) != '\n';
  }

  /** The journal's lines from every writer's file (in file-name order, each in append order); none when none exist. */
  public static List<String> lines(Path journal) throws IOException {
    List<Path> files = new ArrayList<>();
    if (Files.isRegularFile(journal)) files.add(journal);
    Path dir = journal.toAbsolutePath().getParent();
    if (dir != null && Files.isDirectory(dir)) {
      List<Path> writers = new ArrayList<>();
      try (DirectoryStream<Path> s = Files.newDirectoryStream(dir, stem(journal) + ".*.jsonl")) {
        for (Path p : s) if (Files.isRegularFile(p)) writers.add(p);
      }
      writers.sort(null);
      files.addAll(writers);
    }
    List<String> out = new ArrayList<>();
    for (Path f : files) {
      for (String l : Files.readAllLines(f, StandardCharsets.UTF_8)) if (!l.isBlank()) out.add(l);
    }
    return out;
  }

  private static String stem(Path journal) {
    String name = journal.getFileName().toString();
    return name.endsWith(".jsonl") ? name.substring(0, name.length() - ".jsonl".length()) : name;
  }

  /** This process's name among a sweep's writers: {@code <host>-<pid>}, safe as a file name. */
  public static String writer() {
    return WRITER;
  }

  private static String writerName() {
    String host;
    try {
      host = InetAddress.getLocalHost().getHostName();
    } catch (IOException e) {
      host = "host";
    }
    return (host + "-" + ProcessHandle.current().pid()).replaceAll("[^A-Za-z0-9_.-]+", "_");
  }
}
