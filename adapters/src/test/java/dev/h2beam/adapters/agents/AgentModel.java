package dev.h2beam.adapters.agents;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.h2beam.adapters.exec.Shell;
import dev.h2beam.adapters.files.Json;
import dev.h2beam.adapters.llm.ScriptedModelServer;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

/**
 * A scripted model for the real agent CLIs, served by a {@link ScriptedModelServer}: a protocol-neutral {@link Brain}
 * decides each turn from the conversation the CLI sent (its instructions, the task, the tool results so far), and
 * this class speaks both CLIs' protocols for it:
 *
 * <ul>
 *   <li>OpenCode: {@code POST /v1/chat/completions} with {@code stream: true}, answered as SSE
 *       {@code chat.completion.chunk}s. Writing a file is OpenCode's {@code write} tool, a shell command its
 *       {@code bash} tool. OpenCode's parallel title request (no tools) gets {@link #TITLE} without asking the brain.
 *       Requests with {@code stream: false} still go to the server's own non-streaming route.
 *   <li>Codex: {@code POST /v1/responses}, streamed as Responses API events. Both turns are its {@code exec_command}
 *       tool; a file is written by a shell command that quotes the path and the content.
 * </ul>
 *
 * <p>Decisions come from the conversation, never from a request counter: OpenCode sends its title request in
 * parallel with the first turn. The server's scripted faults still apply to these routes (an error status, a dropped
 * connection); note that OpenCode's title request takes the first one. A {@link Turn.Fail} fails the very turn the
 * brain chose.
 */
public final class AgentModel {
  private AgentModel() {}

  public static final String RESPONSES_PATH = "/v1/responses";

  /** What OpenCode's title request is answered with. */
  public static final String TITLE = "Scripted task";

  /** What the scripted agent does on one turn. */
  public sealed interface Turn {
    /** Writes {@code content} to {@code path}, relative to the agent's working folder. */
    record WriteFile(String path, String content) implements Turn {
      public WriteFile {
        Objects.requireNonNull(path, "path");
        Objects.requireNonNull(content, "content");
      }
    }

    /** Runs a shell command in the agent's working folder. */
    record Command(String command) implements Turn {
      public Command {
        Objects.requireNonNull(command, "command");
      }
    }

    /** Ends the turn with a final message. */
    record Say(String text) implements Turn {
      public Say {
        Objects.requireNonNull(text, "text");
      }
    }

    /** The server answers this turn with an HTTP error {@code status} and an OpenAI error body. */
    record Fail(int status, String message) implements Turn {}
  }

  /**
   * The conversation so far as the model sees it, whichever protocol carried it.
   *
   * @param instructions the harness text: system and developer messages, and the messages a CLI injects for the
   *     workspace (Codex's {@code # AGENTS.md instructions} and {@code <environment_context>}), joined by blank lines
   * @param prompt the user's task, joined by blank lines when there are several
   * @param toolResults the outputs of the tool calls so far, in order
   */
  public record Conversation(String instructions, String prompt, List<String> toolResults) {
    public Conversation {
      toolResults = List.copyOf(toolResults);
    }

    /** True when the instructions or the task contain {@code text}. */
    public boolean says(String text) {
      return instructions.contains(text) || prompt.contains(text);
    }
  }

  /** Decides the next turn. */
  @FunctionalInterface
  public interface Brain {
    Turn next(Conversation conversation);
  }

  /**
   * Serves {@code brain} on {@code server}: streaming chat completions for OpenCode, the Responses API for Codex.
   * Returns the running total of the tokens the streamed replies reported.
   */
  public static LongSupplier serve(ScriptedModelServer server, Brain brain) {
    ScriptedModelServer.Route plain = server.routeOf(ScriptedModelServer.CHAT_PATH);
    AtomicInteger ids = new AtomicInteger();
    AtomicLong reported = new AtomicLong();
    server.route(ScriptedModelServer.CHAT_PATH, call -> {
      JsonNode body = call.request().body();
      if (!body.path("stream").asBoolean(false)) {
        plain.handle(call);
        return;
      }
      boolean title = body.path("tools").isEmpty();
      Conversation c = fromChat(body);
      Turn turn = title ? new Turn.Say(TITLE) : brain.next(c);
      if (turn instanceof Turn.Fail f) {
        fail(call, f);
      } else {
        Usage u = usage(c, turn);
        reported.addAndGet(u.input() + u.output());
        stream(call, server.latency(), ChatStream.events(turn, body.path("model").asText(), ids.incrementAndGet(),
            u));
      }
    });
    server.route(RESPONSES_PATH, call -> {
      JsonNode body = call.request().body();
      Conversation c = fromResponses(body);
      Turn turn = brain.next(c);
      if (turn instanceof Turn.Fail f) {
        fail(call, f);
      } else {
        Usage u = usage(c, turn);
        reported.addAndGet(u.input() + u.output());
        stream(call, server.latency(), ResponsesStream.events(turn, body.path("model").asText(), ids.incrementAndGet(),
            u));
      }
    });
    return reported::get;
  }

  /** The conversation of a chat completions request. */
  static Conversation fromChat(JsonNode body) {
    List<String> instructions = new ArrayList<>();
    List<String> prompt = new ArrayList<>();
    List<String> results = new ArrayList<>();
    for (JsonNode m : body.path("messages")) {
      String text = text(m.path("content"));
      switch (m.path("role").asText()) {
        case "system", "developer" -> instructions.add(text);
        case "user" -> prompt.add(text);
        case "tool" -> results.add(text);
        default -> { }
      }
    }
    return new Conversation(String.join("\n\n", instructions), String.join("\n\n", prompt), results);
  }

  /** The conversation of a Responses API request. */
  static Conversation fromResponses(JsonNode body) {
    List<String> instructions = new ArrayList<>();
    if (body.hasNonNull("instructions")) instructions.add(body.path("instructions").asText());
    List<String> prompt = new ArrayList<>();
    List<String> results = new ArrayList<>();
    for (JsonNode item : body.path("input")) {
      String type = item.path("type").asText();
      if (type.equals("function_call_output")) {
        results.add(text(item.path("output")));
      } else if (type.equals("message")) {
        String text = text(item.path("content"));
        boolean injected = text.startsWith("# AGENTS.md instructions") || text.startsWith("<environment_context>");
        if (!item.path("role").asText().equals("user") || injected) instructions.add(text);
        else prompt.add(text);
      }
    }
    return new Conversation(String.join("\n\n", instructions), String.join("\n\n", prompt), results);
  }

  /** A content field as text: a string, or the texts of its parts joined. */
  private static String text(JsonNode content) {
    if (content.isTextual()) return content.asText();
    List<String> parts = new ArrayList<>();
    for (JsonNode part : content) if (part.hasNonNull("text")) parts.add(part.path("text").asText());
    return String.join("\n", parts);
  }

  /** Token counts from sizes, as the server's non-streaming route counts them: ⌈characters / 4⌉. */
  record Usage(long input, long output) {}

  private static Usage usage(Conversation c, Turn turn) {
    long in = c.instructions().length() + c.prompt().length();
    for (String r : c.toolResults()) in += r.length();
    long out = 0;
    if (turn instanceof Turn.WriteFile w) out = w.path().length() + w.content().length();
    else if (turn instanceof Turn.Command r) out = r.command().length();
    else if (turn instanceof Turn.Say s) out = s.text().length();
    return new Usage((in + 3) / 4, (out + 3) / 4);
  }

  /** The shell command that writes a file, for agents whose only tool is a shell. */
  static String writeCommand(Turn.WriteFile w) {
    String write = "printf '%s' " + Shell.quote(w.content()) + " > " + Shell.quote(w.path());
    int slash = w.path().lastIndexOf('/');
    return slash > 0 ? "mkdir -p " + Shell.quote(w.path().substring(0, slash)) + " && " + write : write;
  }

  private static void fail(ScriptedModelServer.Call call, Turn.Fail f) throws IOException {
    ObjectNode e = Json.MAPPER.createObjectNode();
    e.putObject("error").put("message", f.message()).put("type", "invalid_request_error").putNull("code");
    call.sendJson(f.status(), e.toString());
  }

  /**
   * Sends server-sent events after the server's latency: each string is one event's lines, without the blank line
   * that ends it.
   */
  private static void stream(ScriptedModelServer.Call call, Duration latency, List<String> events)
      throws IOException, InterruptedException {
    if (!latency.isZero()) Thread.sleep(latency.toMillis());
    call.beginResponse();
    call.exchange().getResponseHeaders().set("Content-Type", "text/event-stream");
    call.exchange().getResponseHeaders().set("Cache-Control", "no-cache");
    call.exchange().sendResponseHeaders(200, 0);
    try (OutputStream out = call.exchange().getResponseBody()) {
      for (String event : events) {
        out.write((event + "\n\n").getBytes(StandardCharsets.UTF_8));
        out.flush();
      }
    }
  }
}
