package dev.h2beam.adapters.exec;

import com.fasterxml.jackson.databind.JsonNode;
import dev.h2beam.adapters.files.AtomicFiles;
import dev.h2beam.adapters.files.Json;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The record, in a rollout's run folder, of the program running in it ({@link #FILE}): its pid, which is also its
 * session's id ({@link ProcessGroup}), when it started, and the machine and boot it runs on. Written as the program
 * starts and removed once its group is gone. A JVM killed with -9 cannot kill its programs, which run in sessions of
 * their own, so it leaves the record behind with the program still running; {@link #stopRecorded} kills what is left
 * of it before the rollout runs again in the folder, or the earlier program went on writing into the new run's
 * {@code output/} and its files were marked as the new run's deliverables.
 *
 * <p>A process with the recorded pid but another start time is not the recorded one: the pid was handed out again,
 * which Linux does only once no process is left in the session of that id, so nothing of the earlier program runs.
 * Written only where there is a /proc (Linux) and the program has a session of its own ({@code setsid}).
 *
 * <p>The record is first written before the program starts, with a token the program gets in its environment
 * ({@link #ENV}) and no pid yet. A JVM killed between the start and the pid's record leaves that first record: the
 * program is then found by its token among the processes' environments, as is any of its descendants that kept it.
 */
public final class GroupRecord {
  /**
   * The logger, made when something is first logged: starting slf4j took 15 ms of a resume that logs nothing
   * (BENCHMARKS.md, issue 12).
   */
  private static final class Log {
    static final Logger LOG = LoggerFactory.getLogger(GroupRecord.class);
  }

  /** The source of tokens, made when the first is: only agents' rollouts have records. */
  private static final class Tokens {
    static final SecureRandom RANDOM = new SecureRandom();
  }

  /** The record's name in the run folder. */
  public static final String FILE = "running.json";

  /** The variable that carries a record's token in its program's environment. */
  public static final String ENV = "H2BEAM_GROUP_TOKEN";

  private static final Path BOOT_ID = Path.of("/proc/sys/kernel/random/boot_id");
  private static final Path HOST = Path.of("/proc/sys/kernel/hostname");

  private GroupRecord() {}

  /**
   * Records, in {@code file}, a program about to start, with a new token for its environment.
   *
   * @return the token, or null where there is no /proc (nothing is recorded then)
   */
  static String starting(Path file) throws IOException {
    String boot = read(BOOT_ID);
    if (boot.isEmpty()) return null;
    byte[] bytes = new byte[16];
    Tokens.RANDOM.nextBytes(bytes);
    String token = HexFormat.of().formatHex(bytes);
    AtomicFiles.writeString(file, Json.canonical(record(token, boot, -1, -1)) + "\n");
    return token;
  }

  /** Records the program {@code pid} of {@code token}, started just now, in {@code file}. */
  static void write(Path file, String token, long pid) throws IOException {
    // start ticks -1 when the program has already ended: a later look finds no process with this start time
    AtomicFiles.writeString(file, Json.canonical(record(token, read(BOOT_ID), pid, ProcessGroup.startTicks(pid)))
        + "\n");
  }

  private static Map<String, Object> record(String token, String boot, long pid, long start) {
    Map<String, Object> r = new LinkedHashMap<>();
    if (pid > 0) {
      r.put("pid", pid);
      r.put("start_ticks", start);
    }
    r.put("token", token);
    r.put("boot_id", boot);
    r.put("host", read(HOST));
    return r;
  }

  /** Removes the record once the program's group is gone; a record that cannot be removed is only logged. */
  static void remove(Path file) {
    try {
      Files.deleteIfExists(file);
    } catch (IOException e) {
      Log.LOG.warn("cannot remove {} after its program ended: {}; the next run in its folder removes it", file,
          e.getMessage());
    }
  }

  /**
   * Before a rollout runs (again) in {@code runDir}: kills what is left of the program an earlier run recorded there
   * (its JVM was killed before it could) and removes the record. Call it before the folder is cleared, or the
   * earlier program writes into the cleared folder.
   *
   * @return whether a record was found: the folder's files may then be the earlier program's, to be cleared
   * @throws IOException the record cannot be removed (the folder is not writable)
   */
  public static boolean stopRecorded(Path runDir) throws IOException {
    Path file = runDir.resolve(FILE);
    if (!Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS)) return false;
    JsonNode r;
    try {
      r = Json.readTree(file);
    } catch (IOException e) {
      r = null;
    }
    if (r != null && (r.path("pid").canConvertToLong() || r.path("token").isTextual())) stop(file, r);
    Files.deleteIfExists(file);
    return true;
  }

  private static void stop(Path file, JsonNode r) {
    long pid = r.path("pid").asLong(-1);
    String host = r.path("host").asText("");
    if (!r.path("boot_id").asText("").equals(read(BOOT_ID))) {
      // another boot of this machine ended the program; another machine's is out of reach
      if (!host.equals(read(HOST))) {
        Log.LOG.warn("{} records program {} running on host {}, which h2beam cannot stop from here; if it still"
            + " runs, stop it there: it may write into the folder the rollout runs in again", file,
            pid > 0 ? pid : "(pid not yet recorded)", host);
      }
      return;
    }
    if (pid <= 0) {
      stopByToken(file, r.path("token").asText());
      return;
    }
    long start = ProcessGroup.startTicks(pid);
    if (start >= 0 && start != r.path("start_ticks").asLong()) return; // the pid was handed out again: see above
    int found = ProcessGroup.killSession(pid);
    said(file, "pid " + pid, found, ProcessGroup.members(pid).size());
  }

  /**
   * Says what became of the {@code found} processes of {@code file}'s program, {@code left} of them still alive
   * after the kill: another user's, which this one may not signal, ran on while the warning said they were killed
   * (dogAB 6).
   */
  private static void said(Path file, String which, int found, int left) {
    if (found > left) {
      Log.LOG.warn("killed {} process(es) of the program recorded in {} ({}), left running by an h2beam that was"
          + " killed; the rollout runs again in a cleared folder", found - left, file, which);
    }
    if (left > 0) {
      Log.LOG.warn("could not kill {} process(es) of the program recorded in {} ({}), left running by an h2beam that"
          + " was killed (another user's, whose processes this one may not signal?): they run on and may write into"
          + " the folder the rollout runs in again; their owner or root may stop them", left, file, which);
    }
  }

  /**
   * Kills the sessions of the processes whose environment holds {@code token}: the program of a record written before
   * its start, whose JVM was killed before the pid could be recorded (or before the program started at all, when
   * none has it).
   */
  private static void stopByToken(Path file, String token) {
    if (token.isEmpty()) return;
    int found = 0;
    int left = 0;
    for (long sid : ProcessGroup.sessionsWithEnv(ENV + "=" + token)) {
      found += ProcessGroup.killSession(sid);
      left += ProcessGroup.members(sid).size();
    }
    said(file, "found by its token, its pid not yet recorded", found, left);
  }

  /** A small /proc file's text, trimmed, or "" when it cannot be read. */
  private static String read(Path file) {
    try {
      return Files.readString(file, StandardCharsets.ISO_8859_1).trim();
    } catch (IOException e) {
      return "";
    }
  }
}
