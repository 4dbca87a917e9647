package dev.h2beam.pipelines.report;

import dev.h2beam.adapters.files.AtomicFiles;
import dev.h2beam.adapters.files.Json;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Writes a built report into its output folder: {@code report.txt}, {@code report.html}, under aggregate disclosure
 * {@code report-restricted.json} (owner-only where the file system allows), and always {@code report.json}, the
 * record of this run (status, message, files, unreadable inputs; no figure) that the command reads back. Files of an
 * earlier report that this one does not produce are removed, so the folder never mixes two reports.
 */
final class ReportFiles {
  private ReportFiles() {}

  static final String TEXT = "report.txt";
  static final String HTML = "report.html";
  static final String RESTRICTED = "report-restricted.json";
  static final String RECORD = "report.json";

  static Map<String, Object> write(Path dir, Report.Result r, ReportSettings s) throws IOException {
    Files.createDirectories(dir);
    for (String name : List.of(TEXT, HTML, RESTRICTED)) Files.deleteIfExists(dir.resolve(name));
    List<String> files = new ArrayList<>();
    if (r.reportable()) {
      AtomicFiles.writeString(dir.resolve(TEXT), r.text() + "\n");
      files.add(TEXT);
      AtomicFiles.writeString(dir.resolve(HTML), r.html());
      files.add(HTML);
      if (r.restricted() != null) {
        // owner-only from its first byte: it holds what the disclosure withholds from the shared files
        AtomicFiles.write(dir.resolve(RESTRICTED), true, out -> {
          Json.writePretty(out, r.restricted());
          out.write('\n');
        });
        files.add(RESTRICTED);
      }
    }
    Map<String, Object> record = new LinkedHashMap<>();
    record.put("status", r.reportable() ? "reported" : "nothing-to-report");
    record.put("message", r.message());
    record.put("disclosure", s.disclosure().flag);
    record.put("namespaces", s.included().stream().map(NamespaceRef::dir).toList());
    record.put("files", files);
    record.put("console", r.reportable() ? "" : r.text());
    List<Object> unreadable = new ArrayList<>();
    for (ReadFailure f : r.failures()) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("input", f.input());
      m.put("stage", f.stage());
      m.put("message", f.message());
      unreadable.add(m);
    }
    record.put("unreadable", unreadable);
    AtomicFiles.writeString(dir.resolve(RECORD), Json.pretty(record) + "\n");
    return record;
  }

  static String read(Path file) throws IOException {
    return Files.readString(file, StandardCharsets.UTF_8);
  }
}
