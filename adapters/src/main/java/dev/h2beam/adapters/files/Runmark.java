package dev.h2beam.adapters.files;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.concurrent.Callable;

/**
 * Harness fingerprints and rollout completion markers ({@code .adapt_complete}, spec §2.18, §4.9). A rollout is
 * reused only when its marker names the same harness fingerprint.
 */
public final class Runmark {
  private Runmark() {}

  public static final String MARKER = ".adapt_complete";

  /**
   * SHA-1 over every file in Python path order (relpath, NUL, bytes, NUL), skipping the marker, {@code __pycache__},
   * {@code *.pyc} and {@code .DS_Store}; the first 16 hex chars. {@code null} gives {@code base}, a non-directory
   * {@code absent}.
   */
  public static String fingerprint(Path dir) {
    if (dir == null) return "base";
    Known known = KNOWN.get();
    if (known != null && known.dir().equals(dir)) return known.fingerprint();
    return fingerprint(dir, null);
  }

  /**
   * The same for a harness this process has just written ({@link WrittenTrees}): its files and the texts it wrote are
   * taken from memory, the rest read from disk. For the rollout about to run it only, as the other stages of its task
   * read it ({@link WrittenTrees}); every check of what is stored (a resume, the judge) fingerprints the disk.
   * Listing and reading each harness again before its rollout was a percent of a sweep's CPU at L = 0 (BENCHMARKS.md,
   * issue 11).
   */
  public static String fingerprintWritten(Path dir) {
    if (dir == null) return "base";
    return fingerprint(dir, WrittenTrees.of(dir));
  }

  private static String fingerprint(Path dir, WrittenTrees.Entry written) {
    if (written == null && !Files.isDirectory(dir)) return "absent";
    MessageDigest sha1 = Hashes.digest("SHA-1");
    for (String rel : written != null ? written.files() : PathOrder.files(dir)) {
      String name = rel.substring(rel.lastIndexOf('/') + 1);
      if (name.equals(MARKER) || name.endsWith(".pyc") || name.equals(".DS_Store")) continue;
      sha1.update(rel.getBytes(StandardCharsets.UTF_8));
      sha1.update((byte) 0);
      String text = written == null ? null : written.written().get(rel);
      if (text != null) {
        sha1.update(text.getBytes(StandardCharsets.UTF_8));
      } else {
        try {
          Hashes.update(sha1, dir.resolve(rel));
        } catch (IOException e) {
          sha1.update("<unreadable>".getBytes(StandardCharsets.UTF_8));
        }
      }
      sha1.update((byte) 0);
    }
    return Hashes.hex(sha1.digest()).substring(0, 16);
  }

  /** A fingerprint just taken on this thread, of a folder nothing writes in while it is known. */
  private record Known(Path dir, String fingerprint) {}

  private static final ThreadLocal<Known> KNOWN = new ThreadLocal<>();

  /**
   * Runs {@code body} with {@code fingerprint} (just taken by {@link #fingerprint}) known for {@code dir} on this
   * thread: a rollout's harness is fingerprinted by the roller for its journal and again by the benchmark for its
   * marker, and reading and hashing it twice was a percent of a sweep's CPU at L = 0 (BENCHMARKS.md, issue 11). For a
   * folder nothing writes in meanwhile: a harness is written before its rollout and never while it runs.
   */
  public static <T> T knowing(Path dir, String fingerprint, Callable<T> body) throws Exception {
    if (dir == null) return body.call();
    Known before = KNOWN.get();
    KNOWN.set(new Known(dir, fingerprint));
    try {
      return body.call();
    } finally {
      if (before == null) KNOWN.remove(); else KNOWN.set(before);
    }
  }

  /**
   * Writes the completion marker atomically: {@code at}, {@code harness}, {@code run_id}, {@code version: 1} and the
   * extras, with sorted keys. {@code at} is supplied by the caller so that logic stays free of clocks.
   */
  public static void markComplete(Path runDir, String runId, String harnessFingerprint, double at,
      Map<String, Object> extra) throws IOException {
    Map<String, Object> m = new LinkedHashMap<>(extra);
    m.put("at", at);
    m.put("harness", harnessFingerprint);
    m.put("run_id", runId);
    m.put("version", 1);
    AtomicFiles.writeString(runDir.resolve(MARKER), Json.prettySorted(m, 2));
  }

  /** The marker as JSON, or null when it is missing or unreadable. */
  public static JsonNode readMark(Path runDir) {
    Path f = runDir.resolve(MARKER);
    return Files.isRegularFile(f) ? parseMark(f) : null;
  }

  /** A marker file known to be a regular file, as JSON; null when it is unreadable or not a JSON object. */
  public static JsonNode parseMark(Path markerFile) {
    try {
      JsonNode n = Json.readTree(markerFile);
      return n != null && n.isObject() ? n : null;
    } catch (IOException e) {
      return null;
    }
  }

  /** Why a finished rollout in {@code runDir} may or may not be reused for a harness with this fingerprint. */
  public static String whyNot(Path runDir, String harnessFingerprint) {
    JsonNode m = readMark(runDir);
    if (m == null) {
      return Files.exists(runDir.resolve(MARKER)) ? "unreadable completion marker" : "no completion marker";
    }
    if (m.path("version").asInt(-1) != 1) return "marker version mismatch";
    String got = m.path("harness").asText("");
    if (!Objects.equals(got, harnessFingerprint)) {
      return String.format(Locale.ROOT, "harness fingerprint %s != %s", got, harnessFingerprint);
    }
    return "reusable";
  }

  public static boolean isComplete(Path runDir, String harnessFingerprint) {
    return whyNot(runDir, harnessFingerprint).equals("reusable");
  }

  /**
   * The digest of every file below {@code dir}, keyed by {@code prefix} plus its relative path, sorted: what a marker
   * records of a rollout's deliverables, so a later reader can tell whether any was changed, added or removed.
   */
  public static Map<String, Object> digests(Path dir, String prefix) throws IOException {
    Map<String, Object> d = new TreeMap<>();
    for (String rel : PathOrder.files(dir)) d.put(prefix + rel, fileDigest(dir.resolve(rel)));
    return d;
  }

  /** Whether the marker's {@code deliverables} still equal {@link #digests} of {@code dir}; false without a marker. */
  public static boolean deliverablesIntact(JsonNode mark, Path dir, String prefix) {
    if (mark == null || !mark.path("deliverables").isObject()) return false;
    try {
      return Json.MAPPER.valueToTree(digests(dir, prefix)).equals(mark.path("deliverables"));
    } catch (IOException e) {
      return false;
    }
  }

  /** SHA-1 (first 16 hex) of one file's bytes; the digest recorded for each deliverable in a marker. */
  public static String fileDigest(Path file) throws IOException {
    return Hashes.sha1Hex(file).substring(0, 16);
  }
}
