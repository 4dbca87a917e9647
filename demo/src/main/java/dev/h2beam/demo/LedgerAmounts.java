package dev.h2beam.demo;

import dev.h2beam.adapters.files.TextFiles;
import java.io.IOException;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.file.Path;
import java.util.List;

/** Exact decimal arithmetic over a ledger CSV's {@code amount} column, the reference the scripted selector checks. */
final class LedgerAmounts {
  private LedgerAmounts() {}

  /** The sum of every signed amount in {@code csv}, exact. */
  static BigDecimal signedTotal(Path csv) throws IOException {
    return signedTotal(csv.toString(), TextFiles.readUtf8(csv));
  }

  /** The same of a ledger's text, {@code csv} naming it in messages. */
  static BigDecimal signedTotal(String csv, String text) throws IOException {
    List<String> lines = text.lines().toList();
    if (lines.isEmpty()) throw new IOException(csv + " is empty: expected a header line with an amount column");
    String[] header = lines.get(0).split(",", -1);
    int col = -1;
    for (int i = 0; i < header.length; i++) {
      if (unquote(header[i]).equals("amount")) col = i;
    }
    if (col < 0) throw new IOException(csv + ": the header line has no amount column");
    BigDecimal total = BigDecimal.ZERO;
    for (int n = 1; n < lines.size(); n++) {
      if (lines.get(n).isBlank()) continue;
      String[] cells = lines.get(n).split(",", -1);
      String cell = col < cells.length ? unquote(cells[col]) : "";
      try {
        total = total.add(new BigDecimal(cell));
      } catch (NumberFormatException e) {
        throw new IOException(csv + " line " + (n + 1) + ": '" + cell + "' is not an amount", e);
      }
    }
    return total;
  }

  /** The total as the summarize script prints it: {@code Total: <sum with two decimals>}. */
  static String totalLine(BigDecimal total) {
    return "Total: " + total.setScale(2, RoundingMode.HALF_EVEN).toPlainString();
  }

  private static String unquote(String cell) {
    return cell.strip().replaceAll("^\"|\"$", "").strip();
  }
}
