package dev.h2beam.pipelines.judge;

import dev.h2beam.adapters.files.AtomicFiles;
import dev.h2beam.adapters.files.Json;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * The judge a namespace is bound to, so that one judged.json never mixes two instruments, and where h2beam records
 * its own. A recorded judge binds only while the namespace holds grades ({@link #grades}): harness2's CLI sweep
 * records {@code judge} in config.json when it starts (spec §3.6), before anything is judged, so that value names
 * the judge the sweep was started for, not one that graded anything; a namespace nobody judged is free for either
 * tool. Moving the grades aside frees it again.
 *
 * <p>Where h2beam records the judge it grades with: in config.json when h2beam wrote that file (its sweep's, which
 * records {@code bench_provider}, or one of only {@code judge} that an earlier h2beam judge made), or when there is
 * none; harness2's demo writes and reads no config.json (spec §14.4), and a later h2beam sweep completes such a file.
 * Never in a config.json a harness2 CLI sweep wrote: harness2 compares the whole file for equality on resume, so one
 * changed key would make it refuse its own namespace. There h2beam records its judge in {@value #FILE} instead.
 */
public final class JudgeIdentity {
  private JudgeIdentity() {}

  /** h2beam's record of its judge in a namespace whose config.json harness2's CLI sweep wrote; the report reads it. */
  public static final String FILE = "h2beam-judge.json";

  /**
   * What a namespace's files record of its judge.
   *
   * @param judge the judge recorded, or null when none is
   * @param where the file that records it, as a user reads it
   * @param harness2 config.json was written by a harness2 CLI sweep (h2beam must not write it)
   * @param swept config.json says h2beam swept the namespace ({@code bench_provider})
   */
  record Recorded(String judge, String where, boolean harness2, boolean swept) {
    /** The file h2beam records its judge in for this namespace. */
    Path file(Path ns) {
      return ns.resolve(harness2 ? FILE : "config.json");
    }
  }

  /** Reads what {@code ns} records; an unreadable config.json or {@value #FILE} is an error naming the file. */
  static Recorded read(Path ns) throws IOException {
    Path config = ns.resolve("config.json");
    if (!Files.isRegularFile(config)) return new Recorded(null, "config.json", false, false);
    Map<String, Object> c = readable(config);
    boolean swept = c.containsKey("bench_provider");
    // every harness2 CLI sweep writes method_version; a file without it is a judge's, h2beam's
    boolean harness2 = !swept && c.containsKey("method_version");
    if (harness2) {
      Path own = ns.resolve(FILE);
      if (Files.isRegularFile(own)) return new Recorded(text(readable(own).get("judge")), FILE, true, false);
      return new Recorded(text(c.get("judge")), "config.json (harness2's, written as its sweep started)", true, false);
    }
    return new Recorded(text(c.get("judge")), "config.json", false, swept);
  }

  private static Map<String, Object> readable(Path file) throws IOException {
    try {
      return Json.readMap(file);
    } catch (IOException e) {
      throw new IOException(file + " is unreadable (" + e.getMessage() + ")", e);
    }
  }

  private static String text(Object v) {
    return v == null || String.valueOf(v).isEmpty() ? null : String.valueOf(v);
  }

  /**
   * The grades {@code ns} holds, by the name a user would move aside: judged.json and base_judged.json (either
   * tool's) and the grades a stopped h2beam judge kept ({@link KeptGrades}).
   */
  static List<String> grades(Path ns) throws IOException {
    List<String> out = new ArrayList<>();
    for (String f : List.of(JudgedFile.FILE, JudgedFile.BASES_FILE)) if (Files.exists(ns.resolve(f))) out.add(f);
    Path kept = ns.resolve(KeptGrades.DIR);
    if (Files.isDirectory(kept)) {
      try (Stream<Path> s = Files.list(kept)) {
        if (s.findAny().isPresent()) out.add(KeptGrades.DIR + "/");
      }
    }
    return out;
  }

  /** Why judging {@code ns} with the grader {@code identity} is refused, or empty when it may be judged. */
  static Optional<String> refusal(Path ns, Recorded r, String identity) throws IOException {
    if (r.judge() == null || sameInstrument(r.judge(), identity)) return Optional.empty();
    List<String> grades = grades(ns);
    if (grades.isEmpty()) return Optional.empty();
    return Optional.of(ns + " holds grades (" + String.join(", ", grades) + ") of the judge '" + r.judge() + "' its "
        + r.where() + " records, not of '" + identity + "'");
  }

  /**
   * Whether grades of the judge {@code recorded} are of the instrument {@code identity}: the same identity, or the
   * expected grader's as an earlier h2beam recorded it, without its answer keys' digest ({@code expected:normalized}
   * for {@code expected:normalized:<digest>}), which the judge then records whole, so that its grades are not
   * refused for an identity that merely grew more precise; its kept grades are graded anew once, since they name the
   * older identity.
   */
  static boolean sameInstrument(String recorded, String identity) {
    if (recorded.equals(identity)) return true;
    return (recorded.equals("expected:normalized") || recorded.equals("expected:exact"))
        && identity.startsWith(recorded + ":");
  }

  /** Records {@code identity} as the judge of {@code ns}, where {@code r} says h2beam may (see the class). */
  static void record(Path ns, Recorded r, String identity) throws IOException {
    if (identity.equals(r.judge())) return;
    Path file = r.file(ns);
    Map<String, Object> m = Files.isRegularFile(file) ? Json.readMap(file) : new LinkedHashMap<>();
    m.put("judge", identity);
    AtomicFiles.writeString(file, Json.pretty(m) + "\n");
  }
}
