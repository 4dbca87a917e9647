package dev.h2beam.transforms.proposer;

import dev.h2beam.adapters.files.IsoInstant;
import dev.h2beam.adapters.files.Json;
import dev.h2beam.adapters.files.Trees;
import dev.h2beam.adapters.files.Uninterruptible;
import dev.h2beam.adapters.model.Tokens;
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
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Append-only JSON-lines journals ({@code sessions.jsonl}, {@code executions.jsonl}) that record every session and
 * every execution actually run, so anyone can prove that nothing completed ran twice. A record of one that failed says
 * {@code "ok": false}: nothing of it is reused, and it runs again.
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
 *
 * <p>A record follows the files it accounts for (a reply in the cache, a run's completion mark), so {@code kill -9}
 * between the two leaves work done with no record. Whoever reuses that work later appends the missing record,
 * marked {@link #RECOVERED} ({@link #appendIfMissing}); counts of what one command ran leave such records out
 * ({@link #ranNow}).
 */
public final class Journal {
  private Journal() {}

  private static final String WRITER = writerName();

  /** Serialises this process's appends; taken inside the uninterruptible block (see {@link #append}). */
  private static final Object APPENDS = new Object();

  /**
   * Puts on a record what its work spent in model tokens: {@code tokens} ({@code {"input", "output"}}) unless it called
   * no model (a known nothing, left out as the demo's records always were), and {@code "tokens_known": false} when the
   * counts are only part of it. The live progress adds them up as they come.
   */
  public static void putTokens(Map<String, Object> line, Tokens tokens) {
    if (!tokens.equals(Tokens.NONE)) line.put("tokens", tokens.toJson());
    if (!tokens.known()) line.put("tokens_known", false);
  }

  /** The key of a record appended for work whose first record was lost; its value says why. */
  public static final String RECOVERED = "recovered";

  /**
   * Per journal, the ids of the records in every writer's file as this process last read them, plus those it has
   * appended since; read on first need ({@link #appendIfMissing}), so a sweep that never reuses work never reads.
   */
  private static final Map<Path, Set<String>> IDS = new ConcurrentHashMap<>();

  /** Serialises the rare recoveries of this process, so two threads never both find a record missing and add it. */
  private static final Object RECOVERIES = new Object();

  /**
   * Appends one record. The record counts as being written from this call on, not from when the process-wide lock is
   * free: an exiting process waits for every record being written ({@link Uninterruptible}), and one that waited
   * for the lock outside that count was lost when a crash exited the process while another append held the lock (a
   * rollout marked complete, then never journalled, and reused by the resume).
   */
  public static void append(Path journal, String line) throws IOException {
    append(journal, null, line);
  }

  /** The same, for the record of {@code id} ({@link #appendIfMissing}); a null id is no one's. */
  public static void append(Path journal, String id, String line) throws IOException {
    Path file = ownFile(journal);
    Uninterruptible.run(() -> {
      synchronized (APPENDS) {
        appendLocked(file, line);
        Set<String> known = id == null ? null : IDS.get(key(journal));
        if (known != null) known.add(id);
      }
    });
  }

  /**
   * Appends {@code line} as the record of {@code id} unless a record of that id is in some writer's file: the
   * journal's files are read again before deciding (another worker may have recorded it since this process last
   * read), so a record goes missing or doubled only if a second writer records the same id in the same instant,
   * which takes the same work running twice at once. The caller must know that no thread of this process is still
   * about to record it ({@code Proposer} and {@code Roller} keep the ids they are recording).
   *
   * @param idOf the id of a record read back; unreadable records (a torn last line) have none
   * @return whether the record was missing and is now appended
   */
  public static boolean appendIfMissing(Path journal, String id, Function<Map<String, Object>, String> idOf,
      Supplier<String> line) throws IOException {
    Path key = key(journal);
    Set<String> known = IDS.get(key);
    if (known != null && known.contains(id)) return false;
    synchronized (RECOVERIES) {
      known = ConcurrentHashMap.newKeySet();
      for (String l : lines(journal)) {
        try {
          String read = idOf.apply(Json.readMap(l));
          if (read != null) known.add(read);
        } catch (IOException | RuntimeException torn) {
          // a writer killed mid-line: that record is unreadable, and so not the one sought
        }
      }
      IDS.put(key, known);
      if (known.contains(id)) return false;
      append(journal, id, line.get());
      known.add(id);
      return true;
    }
  }

  /** How many records of {@code journal} (every writer's file) stand for work run by the command that wrote them. */
  public static int ranNow(Path journal) throws IOException {
    return ranNow(lines(journal));
  }

  /** How many of these records were run by the command that wrote them, leaving out {@link #RECOVERED} ones. */
  public static int ranNow(List<String> records) {
    int n = 0;
    for (String l : records) {
      try {
        if (!Json.readMap(l).containsKey(RECOVERED)) n++;
      } catch (IOException | RuntimeException torn) {
        n++; // a record cut by a crash still stands for work that ran
      }
    }
    return n;
  }

  private static Path key(Path journal) {
    return journal.toAbsolutePath().normalize();
  }

  private static void appendLocked(Path file, String line) throws IOException {
    Trees.makeFolder(file.toAbsolutePath().getParent());
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
    m.put("started_at", IsoInstant.of(started));
    m.put("ended_at", IsoInstant.of(ended));
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
