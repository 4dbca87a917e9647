package dev.h2beam.adapters.llm;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.h2beam.adapters.config.KeyShapes;
import dev.h2beam.adapters.files.Json;
import dev.h2beam.adapters.model.Tokens;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The chat-completions wire format: the request body h2beam sends and what it reads back from a response (status,
 * {@code Retry-After}, body) as an {@link Attempt}. Error bodies are quoted clipped, on one line, with the key and
 * anything shaped like a key removed, since servers echo what they were sent.
 */
final class ChatWire {
  static final int EXCERPT_CHARS = 300;

  private ChatWire() {}

  /** {@code {model, messages, temperature?, max_tokens?}}, non-streaming. */
  static byte[] requestBody(ChatRequest request) {
    ObjectNode body = Json.MAPPER.createObjectNode();
    body.put("model", request.model());
    ArrayNode messages = body.putArray("messages");
    for (ChatMessage m : request.messages()) messages.addObject().put("role", m.role()).put("content", m.content());
    if (request.temperature() != null) body.put("temperature", request.temperature());
    if (request.maxTokens() != null) body.put("max_tokens", request.maxTokens());
    try {
      return Json.MAPPER.writeValueAsBytes(body);
    } catch (JsonProcessingException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * Reads one response.
   *
   * @param truncated the body was longer than the client reads
   * @param key the key sent, to be scrubbed from anything quoted (null when none was sent)
   */
  static Attempt read(int status, String retryAfter, byte[] body, boolean truncated, String key, Instant now) {
    if (status < 200 || status > 299) {
      String why = "HTTP " + status + ": " + excerpt(body, key);
      if (!RetryPolicy.transientStatus(status)) return new Attempt.Fatal(why);
      return new Attempt.Transient(why, RetryPolicy.retryAfter(retryAfter, now).orElse(null), Usage.NONE);
    }
    if (truncated) return Attempt.Transient.of("the reply is larger than " + body.length + " bytes");
    JsonNode root;
    try {
      root = Json.MAPPER.readTree(body);
    } catch (IOException e) {
      return Attempt.Transient.of("the reply is not JSON: " + excerpt(body, key));
    }
    if (root == null || !root.isObject()) return Attempt.Transient.of("the reply is not a JSON object: "
        + excerpt(body, key));
    Usage usage = usage(root.get("usage"));
    JsonNode choice = root.path("choices").path(0);
    if (!choice.isObject()) {
      // a gateway's error object under a success status (OpenRouter, LiteLLM): an error reply, unbilled as an error
      // status is, unless it reported usage
      boolean error = root.hasNonNull("error") && usage.equals(Usage.NONE);
      return new Attempt.Transient((error ? "the reply is an error: " : "the reply has no choices: ")
          + excerpt(body, key), null, usage, error);
    }
    String text = content(choice.path("message").path("content"));
    String model = root.path("model").asText("");
    String finish = choice.path("finish_reason").asText("");
    // the same request gets the same end again: cut off, filtered, or tool calls where text was asked for; a reply
    // cut off is no answer (its text ends mid-way, and graded it would count as the model's work)
    if (finish.equals("length")) {
      return new Attempt.Fatal("the reply was cut off at max_tokens (finish_reason length" + (text.isBlank()
          ? ", no content: a reasoning model may have spent them all thinking" : "") + "); raise max_tokens of the"
          + " role that made this call in --config (roles.<role>.max_tokens), or leave it unset", usage);
    }
    if (finish.equals("content_filter")) {
      return new Attempt.Fatal("the endpoint's content filter stopped the reply (finish_reason content_filter); the"
          + " same request is filtered again: see the endpoint's content policy, or use another model", usage);
    }
    if (text.isBlank() && choice.path("message").path("tool_calls").isArray()
        && !choice.path("message").path("tool_calls").isEmpty()) {
      return new Attempt.Fatal("the reply is tool calls with no text (finish_reason " + (finish.isEmpty() ? "absent"
          : finish) + "); h2beam offers this call no tools and reads text: use a model or server setting that"
          + " answers in text", usage);
    }
    if (text.isBlank()) {
      return new Attempt.Transient("the reply's content is empty (finish_reason " + (finish.isEmpty() ? "absent"
          : finish) + ")", null, usage);
    }
    return new Attempt.Answered(text, model, finish, usage);
  }

  /** A message's content: a string, or the text parts of a list of content parts; "" otherwise. */
  private static String content(JsonNode content) {
    if (content.isTextual()) return content.asText();
    if (!content.isArray()) return "";
    StringBuilder out = new StringBuilder();
    for (JsonNode part : content) if (part.path("text").isTextual()) out.append(part.path("text").asText());
    return out.toString();
  }

  /** The token counts of a {@code usage} object; a count the server left out stays null. */
  static Usage usage(JsonNode usage) {
    if (usage == null || !usage.isObject()) return Usage.NONE;
    return new Usage(Tokens.count(usage.get("prompt_tokens")), Tokens.count(usage.get("completion_tokens")),
        Tokens.count(usage.path("prompt_tokens_details").get("cached_tokens")),
        Tokens.count(usage.path("completion_tokens_details").get("reasoning_tokens")));
  }

  /**
   * A body as an error message quotes it: the {@code error.message} of a JSON error when there is one, else the
   * text; on one line, clipped, without the key or anything shaped like a key.
   */
  static String excerpt(byte[] body, String key) {
    String text = new String(body, StandardCharsets.UTF_8);
    try {
      JsonNode n = Json.MAPPER.readTree(text);
      if (n != null && n.path("error").path("message").isTextual()) text = n.path("error").path("message").asText();
      else if (n != null && n.path("error").isTextual()) text = n.path("error").asText();
    } catch (IOException e) {
      // not JSON: quote the text as it is
    }
    text = KeyShapes.redact(withoutKey(text, key)).replaceAll("[\\p{Cntrl}\\s]+", " ").strip();
    if (text.isEmpty()) return "(empty body)";
    return text.length() > EXCERPT_CHARS ? text.substring(0, EXCERPT_CHARS) + "…" : text;
  }

  /** Below this length a key is redacted where it stands as a word of its own, not inside other words. */
  static final int SHORT_KEY = 8;

  /**
   * {@code text} without the key's value. A key of {@link #SHORT_KEY} characters or more is removed wherever it
   * occurs. A shorter one (a placeholder such as {@code x} for a local server) only where it stands apart from
   * letters, digits, {@code -} and {@code _}: replacing every occurrence of {@code x} made "does not exist" read
   * "does not e[redacted key]ist", while a server that quotes the key quotes it as a word of its own.
   */
  static String withoutKey(String text, String key) {
    if (key == null || key.isEmpty()) return text;
    if (key.length() >= SHORT_KEY) return text.replace(key, "[redacted key]");
    return Pattern.compile("(?<![A-Za-z0-9_-])" + Pattern.quote(key) + "(?![A-Za-z0-9_-])").matcher(text)
        .replaceAll(Matcher.quoteReplacement("[redacted key]"));
  }
}
