package dev.h2beam.adapters.files;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link Json} writes what CPython's {@code json.dumps(obj, indent=2)} writes, byte for byte. */
class JsonTest {
  @TempDir Path dir;

  /** An insertion-ordered map from alternating keys and values. */
  private static Map<String, Object> map(Object... keysAndValues) {
    Map<String, Object> m = new LinkedHashMap<>();
    for (int i = 0; i < keysAndValues.length; i += 2) m.put((String) keysAndValues[i], keysAndValues[i + 1]);
    return m;
  }

  @Test
  void prettyMatchesPythonForNestedMapsAndLists() throws Exception {
    Object value = map(
        "task_id", "ledger-1",
        "k", 2,
        "modes", map("seq", map("ok", true, "finals", List.of("c2")), "agg", map("ok", false, "finals",
            List.of("agg1", "agg2"))),
        "base", List.of(map("label", "base1", "run_id", "r/1"), List.of(1, List.of(2, List.of(3)))),
        "seed", null);
    String python = "{'task_id': 'ledger-1', 'k': 2, 'modes': {'seq': {'ok': True, 'finals': ['c2']},"
        + " 'agg': {'ok': False, 'finals': ['agg1', 'agg2']}},"
        + " 'base': [{'label': 'base1', 'run_id': 'r/1'}, [1, [2, [3]]]], 'seed': None}";
    assertEquals(Python3.dumps(python, "indent=2"), Json.pretty(value));
  }

  @Test
  void streamedPrettyWritesTheSameBytesAsPrettyAndLeavesTheStreamOpen() throws Exception {
    Map<String, Object> value = map("caf\u00e9", List.of(0.1, 1e-5, 3.0, 1e16, Map.of()), "n", null, "emoji",
        "\ud83d\ude00 \u2014 \u0007", "nested", map("a", List.of(), "b", List.of(map("c", true))));
    java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream() {
      @Override public void close() {
        throw new AssertionError("writePretty must not close the caller's stream");
      }
    };
    Json.writePretty(out, value);
    assertEquals(Json.pretty(value), out.toString(StandardCharsets.UTF_8));
  }

  /**
   * An array's items made apart as bytes at their depth and written in runs as parts give the bytes one writer gives
   * for the whole document, at the root object's arrays (depth 2) and deeper, with nested and empty containers,
   * escapes and floats in the items, and plain items between the parts.
   */
  @Test
  void itemsMadeApartAndWrittenAsPartsGiveTheBytesOfOneWriter() throws Exception {
    List<Object> items = List.of(map("caf\u00e9", 0.1, "e", List.of(), "m", map()), 1e-5, "\u2014 \u0007",
        List.of(map("deep", List.of(1, map("x", null)))), true, map("n", 3.0, "list", List.of("a", "b")), 42);
    for (int depth : List.of(2, 4)) {
      Object whole = map("head", "h", "items", items, "tail", List.of());
      Object parted = map("head", "h", "items", List.of(
          Json.part(asMaps(items.subList(0, 3), depth)), items.get(3),
          Json.part(asMaps(items.subList(4, 5), depth)),
          Json.part(asMaps(items.subList(5, 7), depth))), "tail", List.of());
      for (int i = 2; i < depth; i++) {
        whole = List.of(whole);
        parted = List.of(parted);
      }
      java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
      Json.writePretty(out, parted);
      assertEquals(Json.pretty(whole), out.toString(StandardCharsets.UTF_8), "depth " + depth);
    }
    Python3.assumeAvailable();
    String python = "{'items': [{'caf\u00e9': 0.1}, 1e-05, [1, {}]]}";
    Object parted = map("items", List.of(Json.part(asMaps(List.of(map("caf\u00e9", 0.1), 1e-5,
        List.of(1, map())), 2))));
    assertEquals(Python3.dumps(python, "indent=2"), Json.pretty(parted));
  }

  /** The items as parts written by the mapper, as a run of records or maps is made. */
  private static byte[] asMaps(List<?> items, int depth) throws Exception {
    return Json.prettyItems(g -> {
      for (Object item : items) Json.MAPPER.writeValue(g, item);
    }, depth);
  }

  /** Items a writer puts on the generator itself are the bytes the same items give as maps, escapes and floats too. */
  @Test
  void itemsWrittenOnTheGeneratorGiveTheBytesOfTheSameItemsAsMaps() throws Exception {
    List<Object> items = List.of(map("caf\u00e9", 0.1, "e", map(), "n", null, "x", 1e-5, "k", 3, "b", true),
        map("caf\u00e9", 1e22, "e", map("\u2014", "\u0007"), "n", null, "x", -0.0, "k", 4, "b", false));
    for (int depth : List.of(2, 3)) {
      byte[] written = Json.prettyItems(g -> {
        for (Object item : items) {
          Map<?, ?> m = (Map<?, ?>) item;
          g.writeStartObject();
          g.writeFieldName("caf\u00e9");
          g.writeNumber(Json.pythonFloat((Double) m.get("caf\u00e9")));
          g.writeObjectFieldStart("e");
          for (Map.Entry<?, ?> e : ((Map<?, ?>) m.get("e")).entrySet()) {
            g.writeStringField((String) e.getKey(), (String) e.getValue());
          }
          g.writeEndObject();
          g.writeNullField("n");
          g.writeFieldName("x");
          g.writeNumber(Json.pythonFloat((Double) m.get("x")));
          g.writeNumberField("k", (Integer) m.get("k"));
          g.writeBooleanField("b", (Boolean) m.get("b"));
          g.writeEndObject();
        }
      }, depth);
      assertEquals(new String(asMaps(items, depth), StandardCharsets.UTF_8),
          new String(written, StandardCharsets.UTF_8), "depth " + depth);
    }
  }

  @Test
  void noItemsAreNoBytesAndAnEmptyPartOrADocumentDepthIsRefused() throws Exception {
    assertEquals(0, asMaps(List.of(), 2).length);
    assertThrows(IllegalArgumentException.class, () -> Json.part(new byte[0]));
    assertThrows(IllegalArgumentException.class, () -> asMaps(List.of(1), 0));
  }

  @Test
  void prettyMatchesPythonForEmptyContainers() throws Exception {
    Object value = map("errors", List.of(), "selections", map(), "nested", List.of(map(), List.of()),
        "deep", map("x", map("y", List.of())));
    String python = "{'errors': [], 'selections': {}, 'nested': [{}, []], 'deep': {'x': {'y': []}}}";
    assertEquals(Python3.dumps(python, "indent=2"), Json.pretty(value));
  }

  @Test
  void prettyOfEmptyTopLevelContainersIsBrackets() throws Exception {
    assertEquals(Python3.dumps("{}", "indent=2"), Json.pretty(map()));
    assertEquals(Python3.dumps("[]", "indent=2"), Json.pretty(List.of()));
  }

  @Test
  void prettyMatchesPythonForTypicalFloats() throws Exception {
    Object value = map("zero", 0.0, "three", 3.0, "score", 85.15, "usd", 0.123456, "neg", -2.5, "int", 7,
        "list", List.of(0.1, 1.5, 100.25));
    String python = "{'zero': 0.0, 'three': 3.0, 'score': 85.15, 'usd': 0.123456, 'neg': -2.5, 'int': 7,"
        + " 'list': [0.1, 1.5, 100.25]}";
    assertEquals(Python3.dumps(python, "indent=2"), Json.pretty(value));
  }

  @Test
  void prettyEscapesNonAsciiQuotesAndControlsLikePython() throws Exception {
    Object value = map("why", "A \u2014 B", "quote", "she said \"hi\"", "backslash", "a\\b", "lines", "one\ntwo\tx\r",
        "slash", "a/b", "\u2014key", "v");
    String python = "{'why': 'A \\u2014 B', 'quote': 'she said \"hi\"', 'backslash': 'a\\\\b',"
        + " 'lines': 'one\\ntwo\\tx\\r', 'slash': 'a/b', '\\u2014key': 'v'}";
    String expected = Python3.dumps(python, "indent=2");
    assertEquals(expected, Json.pretty(value));
    assertEquals(true, expected.contains("\\u2014"), expected);
  }

  @Test
  void prettyWithOtherIndentMatchesPython() throws Exception {
    Object value = map("a", List.of(1, map("b", "c")), "d", map());
    assertEquals(Python3.dumps("{'a': [1, {'b': 'c'}], 'd': {}}", "indent=4"), Json.pretty(value, 4));
  }

  @Test
  void prettyHasNoTrailingNewline() {
    String text = Json.pretty(map("a", 1));
    assertEquals("{\n  \"a\": 1\n}", text);
  }

  @Test
  void prettySortedMatchesPythonSortKeysAtEveryDepth() throws Exception {
    Object value = map("version", 1, "run_id", "demo/ledger-1/base1", "harness", "0123abcd",
        "at", 17.5, "extra", map("z", List.of(map("b", 1, "a", 2)), "B", 0.0, "a", "\u2014"));
    String python = "{'version': 1, 'run_id': 'demo/ledger-1/base1', 'harness': '0123abcd', 'at': 17.5,"
        + " 'extra': {'z': [{'b': 1, 'a': 2}], 'B': 0.0, 'a': '\\u2014'}}";
    assertEquals(Python3.dumps(python, "indent=2, sort_keys=True"), Json.prettySorted(value, 2));
  }

  @Test
  void readMapKeepsKeyOrder() throws IOException {
    Path f = dir.resolve("m.json");
    Files.writeString(f, "{\"z\": 1, \"a\": {\"y\": 2, \"b\": 3}, \"m\": [], \"c\": \"\\u2014\"}",
        StandardCharsets.UTF_8);
    Map<String, Object> m = Json.readMap(f);
    assertEquals(List.of("z", "a", "m", "c"), List.copyOf(m.keySet()));
    @SuppressWarnings("unchecked")
    Map<String, Object> inner = (Map<String, Object>) m.get("a");
    assertEquals(List.of("y", "b"), List.copyOf(inner.keySet()));
    assertEquals("\u2014", m.get("c"));
  }

  @Test
  void readMapOfTextKeepsKeyOrder() throws IOException {
    assertEquals(List.of("seq", "agg"), List.copyOf(Json.readMap("{\"seq\": 1, \"agg\": 2}").keySet()));
  }

  @Test
  void readMapRefusesJsonNull() throws IOException {
    Path f = dir.resolve("null.json");
    Files.writeString(f, "null", StandardCharsets.UTF_8);
    assertThrows(IOException.class, () -> Json.readMap(f));
  }

  @Test
  void prettyThenReadMapRoundTripsInOrder() throws IOException {
    Map<String, Object> m = map("b", 1, "a", Arrays.asList(null, "x"), "c", map("k", 2.5));
    Path f = dir.resolve("rt.json");
    Files.writeString(f, Json.pretty(m), StandardCharsets.UTF_8);
    assertEquals(m, Json.readMap(f));
    assertEquals(List.of("b", "a", "c"), List.copyOf(Json.readMap(f).keySet()));
  }

  @Test
  void canonicalSortsKeysCompactly() {
    assertEquals("{\"a\":{\"x\":1,\"y\":2},\"b\":[3]}",
        Json.canonical(map("b", List.of(3), "a", map("y", 2, "x", 1))));
  }

  /**
   * Plain values are written directly, everything else through a tree: both give what the tree gives, for journal
   * lines' kinds of values (times, costs, nested lists of maps, escapes) and for the values only a tree settles.
   */
  @Test
  void canonicalWritesPlainValuesAsTheTreeDoes() throws Exception {
    Map<String, Object> held = map("from", "2026-12-03T22:00:00.123456Z", "to", "2026-12-03T22:00:01Z");
    Map<String, Object> line = map("run_id", "t/agg/x é\u2028\"q\"", "cost_usd", 0.1 + 0.2, "at", 1764800000.123,
        "tiny", 5e-324, "big", 1.5e300, "n", 3, "long", 1L << 40, "ok", true, "none", null,
        "held", List.of(held, map("z", List.of(), "a", map())), "neg", -0.0, "zero", 0.0, "cheap", 0.00005);
    record Point(int x, double y) {}
    List<Object> others = List.of(map("f", 1.5f), map("p", new Point(1, 2.5)),
        map("big", new java.math.BigDecimal("1.10")), java.util.Collections.singletonMap(1, "int key"));
    List<Object> doubles = new java.util.ArrayList<>();
    for (double d : new double[] {0.0, -0.0, 1e-4, 9.999999999999999e-5, 1e16, 9999999999999998.0, 123.456, 1e-5,
        0.1, 1e22, 100.0, Math.nextUp(1e-4), Double.MIN_VALUE, Double.MAX_VALUE}) {
      doubles.add(d);
      doubles.add(-d);
    }
    java.util.Random random = new java.util.Random(11);
    while (doubles.size() < 2000) {
      double d = Double.longBitsToDouble(random.nextLong());
      if (Double.isFinite(d)) doubles.add(d); // a non-finite one is refused either way
    }
    for (int i = 0; i < 2000; i++) doubles.add(Math.pow(10, random.nextDouble() * 24 - 6) * random.nextDouble());
    for (Object value : List.of(line, List.of(line, 7), "text", 2.5, others, doubles)) {
      Object viaTree = Json.SORTED.treeToValue(Json.MAPPER.valueToTree(value), Object.class);
      assertEquals(Json.SORTED.writeValueAsString(viaTree), Json.canonical(value));
    }
  }

  @Test
  void prettyMatchesPythonForSmallAndLargeFloats() throws Exception {
    Object value = List.of(0.0005, 0.000001, 0.00005, 12345678.0, 123456789.0, 1700000000.5, 1e16, 1.5e300);
    String python = "[0.0005, 0.000001, 0.00005, 12345678.0, 123456789.0, 1700000000.5, 1e16, 1.5e300]";
    assertEquals(Python3.dumps(python, "indent=2"), Json.pretty(value));
  }

  @Test
  void prettyWritesLowerCaseHexEscapesLikePython() throws Exception {
    Object value = map("name", "caf\u00e9", "ctl", "\u001f", "nbsp", "\u00a0", "emoji", "\uD83D\uDE00");
    String python = "{'name': 'caf\\u00e9', 'ctl': '\\x1f', 'nbsp': '\\xa0', 'emoji': '\\U0001F600'}";
    assertEquals(Python3.dumps(python, "indent=2"), Json.pretty(value));
  }

  @Test

  void prettyEscapesDeleteLikePython() throws Exception {
    assertEquals(Python3.dumps("['\\x7f']", "indent=2"), Json.pretty(List.of("\u007f")));
  }

  @Test
  void aJsonFileThatIsNotUtf8IsRefusedNamingTheFileAndTheByte() throws Exception {
    Path f = dir.resolve("summary.json");
    Files.write(f, new byte[] {'{', '"', 'a', '"', ':', '"', (byte) 0xff, '"', '}'});
    IOException e = assertThrows(IOException.class, () -> Json.readMap(f));
    assertEquals(f + " is not UTF-8 text (byte 0xFF at offset 6 is invalid); save it as UTF-8", e.getMessage());
    assertThrows(IOException.class, () -> Json.readTree(f));
  }

  /** A parse failure as a message says where, in the parser's words, and quotes none of the text. */
  @Test
  void aSyntaxProblemSaysWhereWithoutQuotingTheText() {
    IOException e = assertThrows(IOException.class, () -> Json.readTree("{\"train\": [\"secret-ish\",\n"));
    String p = Json.syntaxProblem(e);
    assertEquals(false, p.contains("Source") || p.contains("secret-ish") || p.contains("\n"), p);
    assertEquals(true, p.startsWith("Unexpected end-of-input") && p.endsWith("(line 2, column 1)"), p);
    assertEquals("plain", Json.syntaxProblem(new IOException("plain\nsecond line")));
  }

  /** What {@link Json#pythonFloat} wrote for every value before: decimal arithmetic on Java's digits. */
  private static String decimalRepr(double v) {
    if (Double.isNaN(v)) return "NaN";
    if (Double.isInfinite(v)) return v > 0 ? "Infinity" : "-Infinity";
    if (v == 0) return (1 / v < 0) ? "-0.0" : "0.0";
    java.math.BigDecimal bd = new java.math.BigDecimal(Double.toString(v)).stripTrailingZeros();
    String digits = bd.unscaledValue().abs().toString();
    int exp = digits.length() - bd.scale() - 1;
    String sign = v < 0 ? "-" : "";
    if (exp >= -4 && exp < 16) {
      String plain = bd.abs().toPlainString();
      return sign + (plain.contains(".") ? plain : plain + ".0");
    }
    String mantissa = digits.length() == 1 ? digits : digits.charAt(0) + "." + digits.substring(1);
    return sign + mantissa + "e" + (exp < 0 ? "-" : "+") + (Math.abs(exp) < 10 ? "0" : "") + Math.abs(exp);
  }

  /** Values of every magnitude, the plain range's edges and the scores and prices the files hold most. */
  private static double[] floats(int n) {
    java.util.Random r = new java.util.Random(20261202);
    List<Double> out = new java.util.ArrayList<>(List.of(0.001, Math.nextDown(0.001), Math.nextUp(0.001), 1e7,
        Math.nextDown(1e7), 1e-4, Math.nextDown(1e-4), 1e16, Math.nextDown(1e16), 0.1, 0.2, 0.30000000000000004,
        85.15, 100.25, 1.0, 2.5, 123456.789, 9999999.0, 0.0015, Double.MIN_VALUE, Double.MAX_VALUE, 1e-5, 5e-324));
    // times in seconds from a clock in milliseconds, and the edges of the range written from their thousandths
    out.addAll(List.of(1764820000.123, 1764820000.12, 1764820000.1, 1764820000.0, 1e7 + 0.001, 0x1p42 - 0.001,
        0x1p42, Math.nextDown(0x1p42), 4398046511.103, 12345678.5, 99999999.999));
    while (out.size() < n) {
      double v = switch (out.size() % 5) {
        case 4 -> Math.round(r.nextDouble() * 4.5e15) / 1000.0 * (r.nextBoolean() ? 1 : 1e-6); // thousandths
        case 0 -> Double.longBitsToDouble(r.nextLong());                     // any bits
        case 1 -> Math.pow(10, r.nextDouble() * 12 - 4) * (r.nextBoolean() ? 1 : -1); // 1e-4 to 1e8
        case 2 -> Math.round(r.nextDouble() * 1e6) / 100.0;                 // a score or a price in cents
        default -> r.nextDouble() * 1e7;
      };
      if (Double.isFinite(v)) out.add(v);
    }
    return out.stream().mapToDouble(Double::doubleValue).toArray();
  }

  /**
   * Where Java writes plain digits the files are as before, byte for byte; elsewhere the digits are never more than
   * before, and read back as the same number.
   */
  @Test
  void pythonFloatWritesPlainDigitsAsBeforeAndNeverMoreDigitsElsewhere() {
    int plain = 0;
    for (double x : floats(20_000)) {
      for (double v : new double[] {x, -x}) {
        String before = decimalRepr(v);
        String now = Json.pythonFloat(v);
        if (Double.toString(v).indexOf('E') < 0) {
          plain++;
          assertEquals(before, now, () -> "for " + Double.toHexString(v));
        } else {
          assertEquals(v, Double.parseDouble(now), () -> now + " reads back as another number than "
              + Double.toHexString(v));
          assertTrue(digits(now) <= digits(before), () -> now + " against " + before);
        }
      }
    }
    assertTrue(plain > 10_000, "the plain range was tried: " + plain);
  }

  private static int digits(String repr) {
    String mantissa = repr.split("e")[0].replace("-", "").replace(".", "").replaceAll("^0+", "");
    return mantissa.replaceAll("0+$", "").length();
  }

  /** Whole thousandths from 1e7 to 2^42 are written from their digits, everywhere else as before. */
  @Test
  void thousandthsAreWrittenFromTheirDigitsInTheirRangeOnly() {
    assertEquals("1764820000.123", Json.thousandths(1764820000.123));
    assertEquals("-1764820000.12", Json.thousandths(-1764820000.12));
    assertEquals("1764820000.1", Json.thousandths(1764820000.1));
    assertEquals("1764820000.0", Json.thousandths(1764820000.0));
    assertEquals("10000000.001", Json.thousandths(1e7 + 0.001));
    assertEquals(null, Json.thousandths(1764820000.1234), "not a whole number of thousandths");
    assertEquals(null, Json.thousandths(9999999.5), "below 1e7, Java's own digits are Python's");
    assertEquals(null, Json.thousandths(0x1p42), "from 2^42 doubles lie a thousandth apart or more");
    assertEquals(null, Json.thousandths(Double.NaN));
  }

  @Test
  void pythonFloatIsCPythonsRepr() throws Exception {
    double[] values = floats(10_000);
    String[] hex = new String[values.length];
    for (int i = 0; i < values.length; i++) hex[i] = Double.toHexString(values[i]);
    // one argument a value: a single argument is limited to 128 kB
    String[] python = Python3.run("import sys; print('\\n'.join(repr(float.fromhex(h)) for h in sys.argv[1:]))", hex)
        .split("\n");
    assertEquals(values.length, python.length);
    List<String> wrong = new java.util.ArrayList<>();
    for (int i = 0; i < values.length; i++) {
      String expected = python[i].replace("inf", "Infinity");
      String got = Json.pythonFloat(values[i]);
      if (!expected.equals(got)) wrong.add(Double.toHexString(values[i]) + " python " + expected + " h2beam " + got);
    }
    assertEquals(List.of(), wrong);
  }

  /**
   * JSON's own values written without the mapper give the mapper's text: every ASCII character, characters past it
   * (surrogates alone and in pairs), doubles of the plain range, ints and longs at their ends, nulls, empty and nested
   * containers, at indents 0 to 4; and a value that is not plain (a float, a record) still goes to the mapper.
   */
  @Test
  void prettyWithoutTheMapperIsTheMappersText() throws IOException {
    java.util.Random random = new java.util.Random(17);
    for (int round = 0; round < 3_000; round++) {
      Object value = randomPlain(random, 0);
      int indent = random.nextInt(5);
      assertEquals(Json.prettyByMapper(value, indent), Json.pretty(value, indent), "indent " + indent);
      assertEquals(Json.prettySortedByMapper(value, indent), Json.prettySorted(value, indent), "indent " + indent);
      assertEquals(Json.canonicalByMapper(value), Json.canonical(value));
    }
    // keys past the BMP sort by their UTF-16 units as the mapper sorts them; a sorted map keeps its own order
    Map<String, Object> keys = map("\uffff", 1, "\ud83d\ude00", 2, "b", map("z", 1, "a", 2), "a", 3);
    java.util.TreeMap<String, Object> reversed = new java.util.TreeMap<>(java.util.Comparator.reverseOrder());
    reversed.putAll(keys);
    for (Object value : List.of(keys, reversed, List.of(reversed, keys))) {
      assertEquals(Json.prettySortedByMapper(value, 2), Json.prettySorted(value, 2));
      assertEquals(Json.canonicalByMapper(value), Json.canonical(value));
    }
    StringBuilder every = new StringBuilder();
    for (char c = 0; c < 0x200; c++) every.append(c);
    every.append("\u2028\u2029\uffff\ud83d\ude00\ud800\udfff");
    Map<String, Object> all = map(every.toString(), List.of(every.toString(), Integer.MIN_VALUE, Long.MAX_VALUE));
    assertEquals(Json.prettyByMapper(all, 2), Json.pretty(all));
    Map<String, Object> mixed = map("f", 1.5f, "d", 1e-7, "inf", Double.POSITIVE_INFINITY, "neg0", -0.0);
    assertEquals(Json.prettyByMapper(mixed, 2), Json.pretty(mixed));
  }

  private static Object randomPlain(java.util.Random random, int depth) {
    int kind = random.nextInt(depth > 4 ? 7 : 9);
    switch (kind) {
      case 0: return null;
      case 1: return random.nextBoolean();
      case 2: return random.nextInt(5) == 0 ? Integer.MAX_VALUE : random.nextInt(2001) - 1000;
      case 3: return random.nextLong();
      case 4: {
        double[] samples = {0.0, 0.1, 2.5, 1e-4, 123456.789, 1e15, 9.999e15, -3.75, 1764820000.123, 0.3333333333333333};
        return samples[random.nextInt(samples.length)];
      }
      case 5: case 6: return randomString(random);
      case 7: {
        Map<String, Object> m = new LinkedHashMap<>();
        for (int k = random.nextInt(4); k > 0; k--) m.put(randomString(random), randomPlain(random, depth + 1));
        return m;
      }
      default: {
        List<Object> l = new java.util.ArrayList<>();
        for (int k = random.nextInt(4); k > 0; k--) l.add(randomPlain(random, depth + 1));
        return l;
      }
    }
  }

  private static String randomString(java.util.Random random) {
    String[] pieces = {"a", "key", " ", "\"", "\\", "/", "\n", "\r", "\t", "\b", "\f", "\u0000", "\u001f", "\u007f",
        "\u0080", "é", "✓", "\ud83d\ude00", "\ud800", "\udc00", "\uffff", "~"};
    StringBuilder sb = new StringBuilder();
    for (int k = random.nextInt(6); k > 0; k--) sb.append(pieces[random.nextInt(pieces.length)]);
    return sb.toString();
  }

  /** Quoting without ensure_ascii keeps characters past ASCII (DEL included) and escapes what json.dumps escapes. */
  @Test
  void quotingWithoutEnsureAsciiKeepsCharactersPastAscii() {
    StringBuilder out = new StringBuilder();
    Json.quote(out, "a\"b\\c\n\r\t\b\f\u0001\u001f\u007f é ✓ \ud83d\ude00 /", false);
    assertEquals("\"a\\\"b\\\\c\\n\\r\\t\\b\\f\\u0001\\u001f\u007f é ✓ \ud83d\ude00 /\"", out.toString());
    StringBuilder ascii = new StringBuilder();
    Json.quote(ascii, "\u007f é", true);
    assertEquals("\"\\u007f \\u00e9\"", ascii.toString());
  }
}
