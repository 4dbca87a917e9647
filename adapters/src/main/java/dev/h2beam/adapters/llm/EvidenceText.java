package dev.h2beam.adapters.llm;

import dev.h2beam.adapters.proposer.EvidenceView;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The evidence folder ({@code cwd/context}, or the method's {@link EvidenceView} of it) as text, for a model that
 * cannot open files. Every regular file is quoted
 * in Python path order between delimiter lines that carry a random token no quoted file contains, under a header
 * saying the quoted text is data, not instructions. Files are read only up to their cap (64 KiB each, 1 MiB in all)
 * with a visible note where one is cut or left out; files that are not UTF-8 text are listed as binary; symbolic
 * links and special files are listed as skipped, never followed.
 */
final class EvidenceText {
  static final int FILE_CAP = 64 * 1024;
  static final int TOTAL_CAP = 1024 * 1024;

  private EvidenceText() {}

  /** One file as read: its text (null for binary), its size and how many of its bytes the text holds. */
  private record Read(String path, String text, long size, long shown) {}

  static String render(Path context, SecureRandom random) throws IOException {
    return render(EvidenceView.of(context), random);
  }

  /** The same from a view of the evidence: the same files with the same bytes give the same text. */
  static String render(EvidenceView evidence, SecureRandom random) throws IOException {
    List<Read> reads = new ArrayList<>();
    List<String> leftOut = new ArrayList<>();
    long used = 0;
    for (String rel : evidence.files()) {
      long size = evidence.size(rel);
      long budget = Math.min(FILE_CAP, TOTAL_CAP - used);
      if (budget <= 0) {
        leftOut.add(rel + " (" + size + " bytes)");
        continue;
      }
      Read r = read(evidence, rel, size, (int) budget);
      if (r.text() != null) used += r.shown();
      reads.add(r);
    }
    List<String> quoted = new ArrayList<>();
    for (Read r : reads) {
      quoted.add(r.path());
      if (r.text() != null) quoted.add(r.text());
    }
    String token = Fences.token(quoted, random);
    return format(token, reads, leftOut, evidence.skipped());
  }

  /**
   * Reads at most {@code budget} bytes and decodes them as strict UTF-8; a file cut mid-character loses only the
   * incomplete character. Text holding NUL, or bytes that are not UTF-8, make the file binary.
   */
  private static Read read(EvidenceView evidence, String rel, long size, int budget) throws IOException {
    byte[] bytes;
    try (InputStream in = evidence.open(rel)) {
      bytes = in.readNBytes(budget);
    }
    boolean cut = size > bytes.length;
    CharsetDecoder utf8 = StandardCharsets.UTF_8.newDecoder()
        .onMalformedInput(CodingErrorAction.REPORT).onUnmappableCharacter(CodingErrorAction.REPORT);
    ByteBuffer in = ByteBuffer.wrap(bytes);
    CharBuffer out = CharBuffer.allocate(bytes.length);
    CoderResult result = utf8.decode(in, out, !cut);
    if (!cut && result.isUnderflow()) result = utf8.flush(out);
    if (result.isError()) return new Read(rel, null, size, 0);
    String text = out.flip().toString();
    if (text.indexOf('\0') >= 0) return new Read(rel, null, size, 0);
    return new Read(rel, text, size, in.position());
  }

  private static String format(String token, List<Read> reads, List<String> leftOut, Map<String, String> skipped) {
    List<Read> text = reads.stream().filter(r -> r.text() != null).toList();
    List<Read> binary = reads.stream().filter(r -> r.text() == null).toList();
    StringBuilder out = new StringBuilder();
    out.append("## The evidence folder context/\n\n");
    if (text.isEmpty() && binary.isEmpty() && skipped.isEmpty()) {
      return out.append("The evidence folder context/ is empty.\n").toString();
    }
    out.append("The ").append(text.size()).append(" text file(s) of context/ follow in path order. ")
        .append(Fences.explain(token)).append("\n\n");
    for (Read r : text) {
      out.append(Fences.quote(shown(r.path()), r.text(), token));
      if (r.shown() < r.size()) {
        out.append("[truncated: only the first ").append(r.shown()).append(" of ").append(r.size())
            .append(" bytes of ").append(shown(r.path())).append(" are shown]\n");
      }
      out.append('\n');
    }
    if (!binary.isEmpty()) {
      out.append("Binary files (not UTF-8 text, not shown):\n");
      for (Read r : binary) out.append("- ").append(shown(r.path())).append(" (").append(r.size()).append(" bytes)\n");
      out.append('\n');
    }
    if (!leftOut.isEmpty()) {
      out.append("[truncated: the ").append(TOTAL_CAP).append("-byte limit for quoted evidence is used up; these"
          + " files are not shown:]\n");
      for (String f : leftOut) out.append("- ").append(shown(f)).append('\n');
      out.append('\n');
    }
    if (!skipped.isEmpty()) {
      out.append("Skipped entries:\n");
      skipped.forEach((path, why) -> out.append("- ").append(shown(path)).append(": ").append(why).append('\n'));
    }
    return out.toString();
  }

  /** A path on one line: control characters (a newline in a file name) become '?'. */
  private static String shown(String path) {
    return path.replaceAll("\\p{Cntrl}", "?");
  }
}
