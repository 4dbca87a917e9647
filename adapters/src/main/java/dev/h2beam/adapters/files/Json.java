package dev.h2beam.adapters.files;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.PrettyPrinter;
import com.fasterxml.jackson.core.SerializableString;
import com.fasterxml.jackson.core.io.CharacterEscapes;
import com.fasterxml.jackson.core.io.SerializedString;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.databind.ser.std.StdSerializer;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The one JSON configuration of h2beam. Output matches Python's {@code json.dumps(indent=N)}: two-space (or N-space)
 * indentation, {@code ": "} between key and value, empty containers as {@code []} and {@code {}}, non-ASCII escaped,
 * keys in insertion order (or sorted, for markers and cache keys).
 */
public final class Json {
  private Json() {}

  /** Reads any JSON; writes in insertion order. */
  public static final ObjectMapper MAPPER = python(JsonMapper.builder().build());

  /** Writes with map keys sorted; for markers and anything hashed. */
  public static final ObjectMapper SORTED = python(JsonMapper.builder()
      .enable(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS)
      .enable(com.fasterxml.jackson.databind.MapperFeature.SORT_PROPERTIES_ALPHABETICALLY)
      .build());

  /**
   * For encoding pipeline elements only: sorted keys (deterministic bytes) without the Python-compatible escapes and
   * float formatting, which cost time and matter only in files.
   */
  public static final ObjectMapper CODER = JsonMapper.builder()
      .enable(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS)
      .enable(com.fasterxml.jackson.databind.MapperFeature.SORT_PROPERTIES_ALPHABETICALLY)
      .build();

  /** Python's float repr and ensure_ascii escapes (lower-case hex) on a mapper. */
  private static ObjectMapper python(ObjectMapper m) {
    m.getFactory().setCharacterEscapes(new PythonEscapes());
    SimpleModule floats = new SimpleModule("python-floats");
    floats.addSerializer(Double.class, new PythonFloat());
    floats.addSerializer(double.class, new PythonFloat());
    m.registerModule(floats);
    return m;
  }

  /** Python's repr of a float: shortest digits, plain between 1e-4 and 1e16, else {@code 1e-05} style. */
  public static String pythonFloat(double v) {
    if (Double.isNaN(v)) return "NaN";
    if (Double.isInfinite(v)) return v > 0 ? "Infinity" : "-Infinity";
    if (v == 0) return (1 / v < 0) ? "-0.0" : "0.0";
    // asked first: Java writes every value of its range (1e7 and up) with an exponent, so its digits are not needed
    String thousandths = thousandths(v);
    if (thousandths != null) return thousandths;
    String java = Double.toString(v);
    // 1e-3 <= |v| < 1e7: Java writes the digits plainly, its fraction ending in a digit other than 0 or a lone ".0",
    // as Python writes them (Python's plain range, 1e-4 to 1e16, holds Java's); the decimal arithmetic is for the rest
    if (java.indexOf('E') < 0) return java;
    java.math.BigDecimal bd = shortest(Math.abs(v)).stripTrailingZeros();
    String digits = bd.unscaledValue().toString();
    int exp = digits.length() - bd.scale() - 1;
    String sign = v < 0 ? "-" : "";
    if (exp >= -4 && exp < 16) {
      String plain = bd.toPlainString();
      return sign + (plain.contains(".") ? plain : plain + ".0");
    }
    String mantissa = digits.length() == 1 ? digits : digits.charAt(0) + "." + digits.substring(1);
    return sign + mantissa + "e" + (exp < 0 ? "-" : "+") + (Math.abs(exp) < 10 ? "0" : "") + Math.abs(exp);
  }

  /**
   * Python's repr of a value of at least 1e7 and below 2^42 in size that is a whole number of thousandths (a time in
   * seconds from a clock in milliseconds, as every completion marker holds), or null for any other value. Such a
   * value's decimal with at most three places reads back as it (IEEE division rounds m / 1000 to the nearest double),
   * and no other decimal with as few digits does: doubles there lie less than a thousandth apart, so two decimals
   * that both read back as it are less than a thousandth apart, and one with no more digits than this one is a whole
   * number of thousandths too. Python writes it plainly (its plain range ends at 1e16). The decimal arithmetic below
   * gives the same digits at twenty times the cost (half a percent of a sweep's CPU at L = 0, BENCHMARKS.md).
   */
  static String thousandths(double v) {
    double a = Math.abs(v);
    if (!(a >= 1e7 && a < 0x1p42)) return null;
    long m = Math.round(a * 1000);
    if (m / 1000.0 != a) return null;
    long whole = m / 1000;
    int part = (int) (m % 1000);
    StringBuilder out = new StringBuilder(24);
    if (v < 0) out.append('-');
    out.append(whole).append('.');
    if (part == 0) return out.append('0').toString();
    out.append((char) ('0' + part / 100));
    if (part % 100 != 0) out.append((char) ('0' + part / 10 % 10));
    if (part % 10 != 0) out.append((char) ('0' + part % 10));
    return out.toString();
  }

  /**
   * The fewest significant digits that read back as {@code v} (positive, finite), the nearest to it of those, as
   * Python's repr picks them. Java 17's {@link Double#toString} is not always that short outside its plain range
   * (4.9E-324 for Python's 5e-324, and an 18th digit for some values near 1e17): from its length, the nearest decimal
   * that reads back is taken, then one a digit shorter while there is one (if none of p digits reads back, none of
   * fewer does either: it would be one of p digits ending in 0).
   */
  private static java.math.BigDecimal shortest(double v) {
    java.math.BigDecimal exact = new java.math.BigDecimal(v);
    java.math.BigDecimal java = new java.math.BigDecimal(Double.toString(v)); // reads back as v: toString's contract
    int p = java.stripTrailingZeros().precision();
    java.math.BigDecimal best = nearestReadingBack(exact, v, p);
    if (best == null) best = java; // not reached: Java's own digits are one of p digits next to v
    for (java.math.BigDecimal shorter; p > 1 && (shorter = nearestReadingBack(exact, v, p - 1)) != null; p--) {
      best = shorter;
    }
    return best;
  }

  private static final java.math.RoundingMode[] ROUNDINGS = {java.math.RoundingMode.HALF_EVEN,
      java.math.RoundingMode.FLOOR, java.math.RoundingMode.CEILING};

  /** Of the decimals of {@code digits} significant digits next to {@code exact}, the nearest that reads back as v. */
  private static java.math.BigDecimal nearestReadingBack(java.math.BigDecimal exact, double v, int digits) {
    java.math.BigDecimal best = null;
    for (java.math.RoundingMode m : ROUNDINGS) {
      java.math.BigDecimal c = exact.round(new java.math.MathContext(digits, m));
      if (c.doubleValue() != v) continue;
      if (best == null || c.subtract(exact).abs().compareTo(best.subtract(exact).abs()) < 0) best = c;
    }
    return best;
  }

  static final class PythonFloat extends StdSerializer<Double> {
    private static final long serialVersionUID = 1L;

    PythonFloat() {
      super(Double.class);
    }

    @Override public void serialize(Double v, JsonGenerator g, SerializerProvider p) throws IOException {
      g.writeNumber(pythonFloat(v));
    }
  }

  /** ensure_ascii: every character above 0x7E and every control character as a lower-case \\u escape. */
  static final class PythonEscapes extends CharacterEscapes {
    private static final long serialVersionUID = 1L;
    private final int[] ascii;

    PythonEscapes() {
      ascii = CharacterEscapes.standardAsciiEscapesForJSON();
      ascii[0x7F] = CharacterEscapes.ESCAPE_CUSTOM;
      for (int c = 0; c < 0x20; c++) {
        if (c != '\n' && c != '\r' && c != '\t' && c != '\b' && c != '\f') ascii[c] = CharacterEscapes.ESCAPE_CUSTOM;
      }
    }

    @Override public int[] getEscapeCodesForAscii() {
      return ascii;
    }

    @Override public SerializableString getEscapeSequence(int ch) {
      return new SerializedString(String.format(Locale.ROOT, "\\u%04x", ch));
    }
  }

  /** Python-style pretty JSON with the given indent, no trailing newline. */
  public static String pretty(Object value, int indent) {
    // JSON's own values are written here, the rest by the mapper: the same text (JsonTest compares the two), without
    // the mapper's look-up of a serialiser for every value (a completion marker and a session's meta.json each
    // step; over a percent of a sweep's CPU at L = 0, BENCHMARKS.md, issue 11)
    if (indent >= 0 && plain(value, 0)) {
      StringBuilder out = new StringBuilder(256);
      writePlain(out, value, indent, 0, false);
      return out.toString();
    }
    return write(MAPPER, value, indent);
  }

  /** Python-style pretty JSON with indent 2, no trailing newline. */
  public static String pretty(Object value) {
    return pretty(value, 2);
  }

  /** {@link #pretty} by the mapper alone, whatever the value. */
  static String prettyByMapper(Object value, int indent) {
    return write(MAPPER, value, indent);
  }

  /** {@link #canonical} of a {@link #plain} value by the mapper. */
  static String canonicalByMapper(Object value) throws IOException {
    return SORTED.writeValueAsString(value);
  }

  /** {@link #prettySorted} by the mapper alone, whatever the value. */
  static String prettySortedByMapper(Object value, int indent) {
    return write(SORTED, value, indent);
  }

  /**
   * A {@link #plain} value as {@link PythonPrinter} lays it out at {@code depth}, or for a negative {@code indent} as
   * the mapper writes it compact (no spaces, no newlines): in insertion order, or with {@code sorted} in the order
   * {@link #SORTED} writes (a sorted map's own, else the keys' natural order).
   */
  private static void writePlain(StringBuilder out, Object value, int indent, int depth, boolean sorted) {
    if (value == null) {
      out.append("null");
    } else if (value instanceof String s) {
      quote(out, s);
    } else if (value instanceof Double d) {
      out.append(pythonFloat(d));
    } else if (value instanceof Map<?, ?> m) {
      if (m.isEmpty()) {
        out.append("{}");
        return;
      }
      out.append('{');
      boolean first = true;
      Map<?, ?> ordered = sorted && !(m instanceof java.util.SortedMap) ? new java.util.TreeMap<>(m) : m;
      for (Map.Entry<?, ?> e : ordered.entrySet()) {
        if (!first) out.append(',');
        first = false;
        newline(out, indent, depth + 1);
        quote(out, (String) e.getKey());
        out.append(indent < 0 ? ":" : ": ");
        writePlain(out, e.getValue(), indent, depth + 1, sorted);
      }
      newline(out, indent, depth);
      out.append('}');
    } else if (value instanceof List<?> l) {
      if (l.isEmpty()) {
        out.append("[]");
        return;
      }
      out.append('[');
      boolean first = true;
      for (Object o : l) {
        if (!first) out.append(',');
        first = false;
        newline(out, indent, depth + 1);
        writePlain(out, o, indent, depth + 1, sorted);
      }
      newline(out, indent, depth);
      out.append(']');
    } else {
      out.append(value); // Boolean, Integer, Long: their own text
    }
  }

  private static void newline(StringBuilder out, int indent, int depth) {
    if (indent < 0) return;
    out.append('\n');
    for (int i = depth * indent; i > 0; i--) out.append(' ');
  }

  /** A string quoted as {@link PythonEscapes} escapes it: ensure_ascii, lower-case hex, JSON's short escapes. */
  private static void quote(StringBuilder out, String s) {
    quote(out, s, true);
  }

  /**
   * {@code s} quoted as Python's {@code json.dumps} quotes it: JSON's short escapes, every other control character as
   * a lower-case {@code \\u} escape, and with {@code ensureAscii} every character past 0x7E too (else those as they
   * are).
   */
  public static void quote(StringBuilder out, String s, boolean ensureAscii) {
    out.append('"');
    int from = 0;
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c >= 0x20 && (c < 0x7f || !ensureAscii) && c != '"' && c != '\\') continue;
      out.append(s, from, i);
      from = i + 1;
      switch (c) {
        case '"' -> out.append("\\\"");
        case '\\' -> out.append("\\\\");
        case '\n' -> out.append("\\n");
        case '\r' -> out.append("\\r");
        case '\t' -> out.append("\\t");
        case '\b' -> out.append("\\b");
        case '\f' -> out.append("\\f");
        default -> {
          out.append("\\u");
          for (int shift = 12; shift >= 0; shift -= 4) out.append(HEX[c >> shift & 0xf]);
        }
      }
    }
    out.append(s, from, s.length()).append('"');
  }

  private static final char[] HEX = "0123456789abcdef".toCharArray();

  /**
   * {@link #pretty(Object)} written to {@code out} as it is produced (the same bytes: every character past ASCII is
   * escaped), for documents too large to hold as one string. {@code out} is flushed, not closed.
   */
  public static void writePretty(OutputStream out, Object value) throws IOException {
    MAPPER.writer(new PythonPrinter(2)).without(JsonGenerator.Feature.AUTO_CLOSE_TARGET).writeValue(out, value);
  }

  /**
   * The items a writer puts on the generator, as {@link #writePretty} writes them as the elements of an array at
   * nesting {@code depth} (the root object's array has elements at depth 2), joined by that array's separators: its
   * text between the newline after {@code [} and the one before {@code ]}, as bytes; empty for no item. Items made so
   * on several threads and written in order as {@link #part parts} of the array give the bytes one writer gives. Each
   * item is a value at the top of the generator: a map or record with {@code MAPPER.writeValue(g, item)}, or field by
   * field (numbers of type double as {@link #pythonFloat} writes them, with {@code writeNumber(String)}), which is
   * how a file of many like records is written without making each a map first.
   */
  public static byte[] prettyItems(ItemWriter items, int depth) throws IOException {
    if (depth < 1) throw new IllegalArgumentException("array elements are at depth 1 or deeper, not " + depth);
    java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream(8192);
    try (JsonGenerator g = MAPPER.getFactory().createGenerator(out)) {
      g.setPrettyPrinter(new PythonPrinter(2, depth));
      items.write(g);
    }
    return out.toByteArray();
  }

  /** What writes a run of items for {@link #prettyItems}. */
  @FunctionalInterface
  public interface ItemWriter {
    void write(JsonGenerator g) throws IOException;
  }

  /**
   * A value {@link #writePretty} writes as the given bytes, as they are, where a value goes (separators and
   * indentation before it as for any value): for an array's items made by {@link #prettyItems}, a non-empty run of
   * them counting as one element.
   */
  public static Object part(byte[] utf8) {
    if (utf8.length == 0) throw new IllegalArgumentException("an empty part would leave a separator with no value");
    return new com.fasterxml.jackson.databind.util.RawValue(new Bytes(utf8));
  }

  /** Bytes already written as JSON, for {@link #part}: the generator copies them into its output as they are. */
  private static final class Bytes implements SerializableString {
    private final byte[] utf8;

    Bytes(byte[] utf8) {
      this.utf8 = utf8;
    }

    @Override public String getValue() {
      return new String(utf8, java.nio.charset.StandardCharsets.UTF_8);
    }

    @Override public int charLength() {
      return getValue().length();
    }

    @Override public byte[] asUnquotedUTF8() {
      return utf8;
    }

    @Override public int appendUnquotedUTF8(byte[] buffer, int offset) {
      if (buffer.length - offset < utf8.length) return -1;
      System.arraycopy(utf8, 0, buffer, offset, utf8.length);
      return utf8.length;
    }

    @Override public int writeUnquotedUTF8(OutputStream out) throws IOException {
      out.write(utf8);
      return utf8.length;
    }

    @Override public int putUnquotedUTF8(java.nio.ByteBuffer out) {
      if (out.remaining() < utf8.length) return -1;
      out.put(utf8);
      return utf8.length;
    }

    @Override public int appendUnquoted(char[] buffer, int offset) {
      return new SerializedString(getValue()).appendUnquoted(buffer, offset);
    }

    // the quoted forms are for a part used as a name or a string, which it never is
    @Override public char[] asQuotedChars() {
      throw new UnsupportedOperationException("a JSON part is written as it is, never quoted");
    }

    @Override public byte[] asQuotedUTF8() {
      throw new UnsupportedOperationException("a JSON part is written as it is, never quoted");
    }

    @Override public int appendQuotedUTF8(byte[] buffer, int offset) {
      throw new UnsupportedOperationException("a JSON part is written as it is, never quoted");
    }

    @Override public int appendQuoted(char[] buffer, int offset) {
      throw new UnsupportedOperationException("a JSON part is written as it is, never quoted");
    }

    @Override public int writeQuotedUTF8(OutputStream out) {
      throw new UnsupportedOperationException("a JSON part is written as it is, never quoted");
    }

    @Override public int putQuotedUTF8(java.nio.ByteBuffer buffer) {
      throw new UnsupportedOperationException("a JSON part is written as it is, never quoted");
    }
  }

  /** Python-style pretty JSON with sorted keys. */
  public static String prettySorted(Object value, int indent) {
    // as pretty does: every rollout's completion marker is written so
    if (indent >= 0 && plain(value, 0)) {
      StringBuilder out = new StringBuilder(256);
      writePlain(out, value, indent, 0, true);
      return out.toString();
    }
    return write(SORTED, value, indent);
  }

  /** Compact JSON with sorted keys (canonical form for comparisons and hashing). */
  public static String canonical(Object value) {
    try {
      // plain JSON values (the maps of strings, numbers and lists every journal line and key is made of) are written
      // as they are: the conversion through a tree below gives the same text, at twice the cost (a percent of a
      // sweep's CPU at L = 0, BENCHMARKS.md, issue 11)
      if (plain(value, 0)) {
        StringBuilder out = new StringBuilder(128);
        writePlain(out, value, -1, 0, true);
        return out.toString();
      }
      JsonNode tree = MAPPER.valueToTree(value);
      return SORTED.writeValueAsString(SORTED.treeToValue(tree, Object.class));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * Whether {@code value} is made of JSON's own values only: null, strings, booleans, ints, longs, doubles Python
   * writes as plain digits (0.0, and 1e-4 up to 1e16 in size), lists and maps with string keys, nested at most 64
   * deep. Everything else (a record, a float, a big number, a tiny or huge or non-finite double) goes through the
   * tree, which settles how it is written.
   */
  private static boolean plain(Object value, int depth) {
    if (value == null || value instanceof String || value instanceof Boolean || value instanceof Integer
        || value instanceof Long) {
      return true;
    }
    if (value instanceof Double d) {
      // the range Python writes as plain digits, where the tree keeps them as they are; outside it (and -0.0) the tree
      // writes its own decimal form, which stays canonical as it was
      double a = Math.abs(d);
      return a >= 1e-4 && a < 1e16 || d == 0 && 1 / d > 0;
    }
    if (depth >= 64) return false;
    if (value instanceof Map<?, ?> m) {
      for (Map.Entry<?, ?> e : m.entrySet()) {
        if (!(e.getKey() instanceof String) || !plain(e.getValue(), depth + 1)) return false;
      }
      return true;
    }
    if (value instanceof List<?> l) {
      for (Object o : l) if (!plain(o, depth + 1)) return false;
      return true;
    }
    return false;
  }

  private static String write(ObjectMapper mapper, Object value, int indent) {
    try {
      return mapper.writer(new PythonPrinter(indent)).writeValueAsString(value);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static final java.util.regex.Pattern SOURCE = java.util.regex.Pattern.compile(
      "\\[Source: .*?; (line: \\d+, column: \\d+)\\]", java.util.regex.Pattern.DOTALL);

  /**
   * What is wrong with a text that did not parse, for a message that names the file: the parser's own words, where it
   * stopped as {@code (line L, column C)}, and none of the text it quotes (Jackson's {@code [Source: ...]}) nor its
   * second line.
   */
  public static String syntaxProblem(IOException e) {
    if (e instanceof com.fasterxml.jackson.core.JsonProcessingException j) {
      String m = j.getOriginalMessage() == null ? "" : SOURCE.matcher(j.getOriginalMessage()).replaceAll("[$1]");
      com.fasterxml.jackson.core.JsonLocation at = j.getLocation();
      return m.lines().findFirst().orElse("").strip()
          + (at == null || at.getLineNr() < 1 ? "" : " (line " + at.getLineNr() + ", column " + at.getColumnNr() + ")");
    }
    return e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage().lines().findFirst().orElse("");
  }

  public static JsonNode readTree(Path file) throws IOException {
    return MAPPER.readTree(TextFiles.readUtf8(file));
  }

  public static JsonNode readTree(String text) throws IOException {
    return MAPPER.readTree(text);
  }

  /** Reads a JSON object into an insertion-ordered map. */
  public static Map<String, Object> readMap(Path file) throws IOException {
    Map<String, Object> m = MAPPER.readValue(TextFiles.readUtf8(file),
        new TypeReference<LinkedHashMap<String, Object>>() {});
    if (m == null) throw new IOException(file + " holds JSON null, not an object");
    return m;
  }

  /** Reads a JSON object text into an insertion-ordered map. */
  public static Map<String, Object> readMap(String text) throws IOException {
    Map<String, Object> m = MAPPER.readValue(text, new TypeReference<LinkedHashMap<String, Object>>() {});
    if (m == null) throw new IOException("JSON null where an object was expected");
    return m;
  }

  public static <T> T convert(Object value, Class<T> type) {
    return MAPPER.convertValue(value, type);
  }

  /** Jackson pretty printer reproducing Python's json.dumps(indent=N) layout. */
  static final class PythonPrinter implements PrettyPrinter, java.io.Serializable {
    private static final long serialVersionUID = 1L;
    private final int indent;
    /** Where the values it writes start: 0 for documents, else the depth of an array's elements. */
    private final int start;
    private int depth;

    PythonPrinter(int indent) {
      this(indent, 0);
    }

    /** For the elements of an array at nesting {@code start}: values apart are separated as that array's. */
    PythonPrinter(int indent, int start) {
      this.indent = indent;
      this.start = start;
      this.depth = start;
    }

    /**
     * A newline and each indentation up to 64 spaces, as bytes: written in one call, and without the copy into the
     * generator's characters and back that a text's part takes ({@code writeRaw(String, int, int)}), which was a
     * tenth of writing a judge's metrics.json.
     */
    private static final SerializedString[] BREAKS = breaks(64);
    private static final SerializedString COLON = new SerializedString(": ");

    private static SerializedString[] breaks(int most) {
      SerializedString[] out = new SerializedString[most + 1];
      for (int i = 0; i <= most; i++) {
        out[i] = new SerializedString("\n" + " ".repeat(i));
        out[i].asUnquotedUTF8(); // made now, not by the first writer of each
      }
      return out;
    }

    private void newline(JsonGenerator g) throws IOException {
      int spaces = depth * indent;
      g.writeRaw(BREAKS[Math.min(spaces, BREAKS.length - 1)]);
      for (int i = BREAKS.length - 1; i < spaces; i++) g.writeRaw(' ');
    }

    @Override public void writeRootValueSeparator(JsonGenerator g) throws IOException {
      if (start == 0) {
        g.writeRaw('\n');
      } else {
        g.writeRaw(',');
        newline(g);
      }
    }

    @Override public void writeStartObject(JsonGenerator g) throws IOException {
      g.writeRaw('{');
      depth++;
    }

    @Override public void beforeObjectEntries(JsonGenerator g) throws IOException {
      newline(g);
    }

    @Override public void writeObjectFieldValueSeparator(JsonGenerator g) throws IOException {
      g.writeRaw(COLON);
    }

    @Override public void writeObjectEntrySeparator(JsonGenerator g) throws IOException {
      g.writeRaw(',');
      newline(g);
    }

    @Override public void writeEndObject(JsonGenerator g, int nrOfEntries) throws IOException {
      depth--;
      if (nrOfEntries > 0) newline(g);
      g.writeRaw('}');
    }

    @Override public void writeStartArray(JsonGenerator g) throws IOException {
      g.writeRaw('[');
      depth++;
    }

    @Override public void beforeArrayValues(JsonGenerator g) throws IOException {
      newline(g);
    }

    @Override public void writeArrayValueSeparator(JsonGenerator g) throws IOException {
      g.writeRaw(',');
      newline(g);
    }

    @Override public void writeEndArray(JsonGenerator g, int nrOfValues) throws IOException {
      depth--;
      if (nrOfValues > 0) newline(g);
      g.writeRaw(']');
    }
  }
}
