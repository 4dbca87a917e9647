package dev.h2beam.adapters.agents;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectReader;
import dev.h2beam.adapters.files.Json;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * JSON values of an agent CLI's event stream as harness2 (Python) sees them: parsing that never throws, Python's
 * truthiness and {@code or}, and the text a value prints as. harness2's renderers are written against Python's
 * reading of JSON; following it keeps the renderings the same for the same stream.
 */
final class PyJson {
  private PyJson() {}

  /** Python's {@code json.loads} refuses text after the value; so does this reader. */
  private static final ObjectReader READER = Json.MAPPER.reader().with(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);

  /** Keys whose text {@link #textOf} looks for, in order. */
  private static final List<String> TEXT_KEYS = List.of("text", "message", "content", "summary");

  /** The value {@code text} holds, or null when it is not one JSON value. */
  static JsonNode value(String text) {
    try {
      JsonNode n = READER.readTree(text);
      return n == null || n.isMissingNode() ? null : n;
    } catch (JsonProcessingException e) {
      return null; // a malformed line is the stream's, not ours: it is skipped
    }
  }

  /** The object {@code line} holds, or null. */
  static JsonNode object(String line) {
    JsonNode n = value(line);
    return n != null && n.isObject() ? n : null;
  }

  /** Whether the value is there and not JSON null (Python's {@code is not None}). */
  static boolean present(JsonNode n) {
    return n != null && !n.isNull() && !n.isMissingNode();
  }

  /** Python's truthiness: absent, null, false, 0, "" and empty containers are false. */
  static boolean truthy(JsonNode n) {
    if (!present(n)) return false;
    if (n.isBoolean()) return n.booleanValue();
    if (n.isNumber()) return n.doubleValue() != 0;
    if (n.isTextual()) return !n.textValue().isEmpty();
    return n.size() > 0;
  }

  /** Python's {@code a or b or ...}: the first truthy value, else the last one (which may be absent). */
  static JsonNode or(JsonNode... values) {
    for (JsonNode v : values) {
      if (truthy(v)) return v;
    }
    return values[values.length - 1];
  }

  /** The text a field prints as: "" when absent, else {@link #str}. */
  static String text(JsonNode n) {
    return present(n) ? str(n) : "";
  }

  /**
   * Python's {@code str()} of a value: {@code None} when absent, a string as it is, numbers and booleans as Python
   * prints them. Objects and arrays print as {@link #dumps} (Python would print its {@code repr}, a form no reader
   * of a trajectory needs).
   */
  static String str(JsonNode n) {
    if (!present(n)) return "None";
    if (n.isTextual()) return n.textValue();
    if (n.isBoolean()) return n.booleanValue() ? "True" : "False";
    if (n.isNumber()) return number(n);
    return dumps(n);
  }

  /** A whole-number count, or null when the value is not a number, or is one below 0 (no count). */
  static Long count(JsonNode n) {
    return n != null && n.isNumber() && n.doubleValue() >= 0 ? n.longValue() : null;
  }

  /**
   * Python's {@code json.dumps(value, ensure_ascii=False)}: {@code ", "} and {@code ": "} between items, keys in
   * stream order, non-ASCII as is, control characters as lower-case {@code \}{@code u} escapes.
   */
  static String dumps(JsonNode n) {
    StringBuilder sb = new StringBuilder();
    dump(n, sb);
    return sb.toString();
  }

  private static void dump(JsonNode n, StringBuilder sb) {
    if (n.isObject()) {
      sb.append('{');
      for (Iterator<Map.Entry<String, JsonNode>> it = n.fields(); it.hasNext(); ) {
        Map.Entry<String, JsonNode> e = it.next();
        quote(e.getKey(), sb);
        sb.append(": ");
        dump(e.getValue(), sb);
        if (it.hasNext()) sb.append(", ");
      }
      sb.append('}');
    } else if (n.isArray()) {
      sb.append('[');
      for (int i = 0; i < n.size(); i++) {
        if (i > 0) sb.append(", ");
        dump(n.get(i), sb);
      }
      sb.append(']');
    } else if (n.isTextual()) {
      quote(n.textValue(), sb);
    } else if (n.isNumber()) {
      sb.append(number(n));
    } else if (n.isBoolean()) {
      sb.append(n.booleanValue());
    } else {
      sb.append("null");
    }
  }

  private static String number(JsonNode n) {
    return n.isIntegralNumber() ? n.bigIntegerValue().toString() : Json.pythonFloat(n.doubleValue());
  }

  private static void quote(String s, StringBuilder sb) {
    Json.quote(sb, s, false);
  }

  /**
   * The message text of a payload, as harness2's Codex renderer finds it: a string as it is; in an object the first
   * non-blank {@code text}, {@code message}, {@code content} or {@code summary} (looking into nested ones); in an
   * array the non-blank texts of its elements, one a line; "" for anything else.
   */
  static String textOf(JsonNode n) {
    if (n == null) return "";
    if (n.isTextual()) return n.textValue();
    if (n.isObject()) {
      for (String key : TEXT_KEYS) {
        JsonNode v = n.get(key);
        if (v == null) continue;
        if (v.isTextual() && !v.textValue().isBlank()) return v.textValue();
        if (v.isContainerNode()) {
          String t = textOf(v);
          if (!t.isBlank()) return t;
        }
      }
      return "";
    }
    if (n.isArray()) {
      StringBuilder sb = new StringBuilder();
      for (JsonNode x : n) {
        String t = textOf(x);
        if (t.isBlank()) continue;
        if (sb.length() > 0) sb.append('\n');
        sb.append(t);
      }
      return sb.toString();
    }
    return "";
  }
}
