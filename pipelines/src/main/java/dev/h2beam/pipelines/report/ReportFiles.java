package dev.h2beam.pipelines.report;

import com.fasterxml.jackson.databind.JsonNode;
import dev.h2beam.adapters.files.AtomicFiles;
import dev.h2beam.adapters.files.Json;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Writes a built report into its output folder: {@code report.txt}, {@code report.html}, under aggregate disclosure
 * {@code report-restricted.json} (owner-only where the file system allows), and {@code report.json}, the record of
 * this run (status, message, files, unreadable inputs; no figure). Files of an earlier report that this one does not
 * produce are removed, so the folder never mixes two reports. A run with nothing to report leaves a folder that holds
 * an earlier report exactly as it was, its report.json too: a rerun with the wrong {@code --modes} or {@code --k} must
 * not cost the user a good report. The command reads the record back from a copy of its own ({@code runRecord}), so
 * it learns this run's outcome whichever report the folder holds.
 *
 * <p>Before it touches any of its files a report replaces the folder's record with one of status {@value #WRITING}
 * naming the files it is about to write, and writes its final record last: a report stopped part-way (a full disk,
 * a kill) leaves a record that claims what it left, so the same command, run again, writes over them; and never an
 * earlier report's record beside this one's files.
 */
final class ReportFiles {
  private ReportFiles() {}

  static final String TEXT = "report.txt";
  static final String HTML = "report.html";
  static final String RESTRICTED = "report-restricted.json";
  static final String RECORD = "report.json";
  /** The status of the record a report writes before its files, replaced by its final record once they are written. */
  static final String WRITING = "writing";

  /** The files only a report (never a nothing-to-report run) writes. */
  private static final List<String> REPORT_FILES = List.of(TEXT, HTML, RESTRICTED);
  /** Every file a report writes in its folder. */
  static final List<String> OWN_FILES = List.of(TEXT, HTML, RESTRICTED, RECORD);

  /**
   * Writes the report's files and its record into {@code dir}, and the record into {@code runRecord} too when it is
   * not null.
   */
  static Map<String, Object> write(Path dir, Report.Result r, ReportSettings s, Path runRecord) throws IOException {
    Files.createDirectories(dir);
    boolean keepEarlier = !r.reportable() && holdsReport(dir);
    List<String> files = new ArrayList<>();
    if (r.reportable()) {
      files.add(TEXT);
      files.add(HTML);
      if (r.restricted() != null) files.add(RESTRICTED);
    }
    // the record lists itself when this run writes it: the user's "wrote" line is read from this list
    if (!keepEarlier) files.add(RECORD);
    Map<String, Object> record = record(r.status(), r.message(), s, files, r.reportable() ? "" : r.text(),
        r.failures());
    String json = Json.pretty(record) + "\n";
    if (!keepEarlier) {
      if (r.reportable()) {
        // the files are claimed before any is touched: stopped anywhere from here on, the folder's record names what
        // this report was writing, and the next report writes over them
        String writing = "a report is writing " + String.join(", ", files) + " here, or was stopped while writing"
            + " them (a full disk, a kill): some may be missing or left from an earlier report; re-run the same"
            + " command";
        AtomicFiles.writeString(dir.resolve(RECORD), Json.pretty(record(WRITING, writing, s, files, "",
            r.failures())) + "\n");
      }
      for (String name : REPORT_FILES) Files.deleteIfExists(dir.resolve(name));
    }
    if (r.reportable()) {
      AtomicFiles.writeString(dir.resolve(TEXT), r.text() + "\n");
      AtomicFiles.writeString(dir.resolve(HTML), r.html());
      if (r.restricted() != null) {
        // owner-only from its first byte: it holds what the disclosure withholds from the shared files
        AtomicFiles.write(dir.resolve(RESTRICTED), true, out -> {
          Json.writePretty(out, r.restricted());
          out.write('\n');
        });
      }
    }
    // last: the record's final form says the files above are whole
    if (!keepEarlier) AtomicFiles.writeString(dir.resolve(RECORD), json);
    if (runRecord != null) AtomicFiles.writeString(runRecord, json);
    return record;
  }

  private static Map<String, Object> record(String status, String message, ReportSettings s, List<String> files,
      String console, List<ReadFailure> failures) {
    Map<String, Object> record = new LinkedHashMap<>();
    record.put("status", status);
    record.put("message", message);
    record.put("disclosure", s.disclosure().flag);
    record.put("namespaces", s.included().stream().map(NamespaceRef::dir).toList());
    // what the methods' section compared them with; absent without --versus, as in a report of before it
    if (!s.versus().isEmpty()) record.put("versus", s.versusIncluded().stream().map(NamespaceRef::dir).toList());
    record.put("files", files);
    record.put("console", console);
    List<Object> unreadable = new ArrayList<>();
    for (ReadFailure f : failures) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("input", f.input());
      m.put("stage", f.stage());
      m.put("message", f.message());
      unreadable.add(m);
    }
    record.put("unreadable", unreadable);
    return record;
  }

  /**
   * The names a report writes that {@code dir} holds although no h2beam report wrote them: any of them when the
   * folder has no record of a report ({@code report.json} holding a {@code status}, {@value #WRITING} included: a
   * report stopped while writing its files), {@code report.json} too when it is not such a record. A report writes
   * over its own earlier files, never over someone else's; empty when there are none.
   */
  static List<String> notWrittenByAReport(Path dir) {
    if (recordStatus(dir) != null) return List.of();
    List<String> found = new ArrayList<>();
    for (String name : OWN_FILES) {
      if (Files.exists(dir.resolve(name), LinkOption.NOFOLLOW_LINKS)) found.add(name);
    }
    return found;
  }

  /**
   * Whether {@code dir} holds files of an earlier report (a record alone, of a run with nothing, is not one; nor are
   * the files of a report stopped while writing them, which may be missing or another report's).
   */
  static boolean holdsReport(Path dir) {
    return !interrupted(dir) && REPORT_FILES.stream().anyMatch(name -> Files.exists(dir.resolve(name)));
  }

  /**
   * What the report in {@code dir} reported, as its record names it: each namespace folder, then {@code --versus}
   * and each of that side's; empty when the record is missing or unreadable.
   */
  static List<String> reported(Path dir) {
    try {
      Map<String, Object> r = Json.readMap(dir.resolve(RECORD));
      List<String> out = new ArrayList<>();
      if (r.get("namespaces") instanceof List<?> l) l.forEach(x -> out.add(String.valueOf(x)));
      if (r.get("versus") instanceof List<?> l) {
        out.add("--versus");
        l.forEach(x -> out.add(String.valueOf(x)));
      }
      return out;
    } catch (IOException | RuntimeException e) {
      return List.of();
    }
  }

  /** {@link #reported} in words: {@code 1 namespace (a)}, {@code 3 namespaces (a, b, c)} or the first few of more. */
  static String named(List<String> reported) {
    long n = reported.stream().filter(x -> !x.equals("--versus")).count();
    List<String> shown = reported.size() <= 4 ? reported : reported.subList(0, 3);
    return n + (n == 1 ? " namespace (" : " namespaces (") + String.join(", ", shown)
        + (shown.size() < reported.size() ? ", ..." : "") + ")";
  }

  /** Whether {@code dir}'s record is of a report writing its files: one that was stopped, to its lock's holder. */
  static boolean interrupted(Path dir) {
    return WRITING.equals(recordStatus(dir));
  }

  /** The status of {@code dir}'s record of a report, or null when it holds none (or not one of a report's). */
  private static String recordStatus(Path dir) {
    Path record = dir.resolve(RECORD);
    if (!Files.isRegularFile(record, LinkOption.NOFOLLOW_LINKS)) return null;
    try {
      JsonNode status = Json.readTree(record).path("status");
      return status.isTextual() ? status.asText() : null;
    } catch (IOException | RuntimeException e) {
      return null; // not a record of ours
    }
  }

  static String read(Path file) throws IOException {
    return Files.readString(file, StandardCharsets.UTF_8);
  }
}
