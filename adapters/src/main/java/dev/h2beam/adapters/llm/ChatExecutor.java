package dev.h2beam.adapters.llm;

import dev.h2beam.adapters.config.ResolvedRole;
import dev.h2beam.adapters.exec.ExecRequest;
import dev.h2beam.adapters.exec.ExecResult;
import dev.h2beam.adapters.exec.Executor;
import dev.h2beam.adapters.exec.ExecutorProvider;
import dev.h2beam.adapters.files.AtomicFiles;
import dev.h2beam.adapters.files.PathOrder;
import dev.h2beam.adapters.files.TextFiles;
import dev.h2beam.adapters.model.SurfaceSpec;
import dev.h2beam.adapters.model.Tokens;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The {@code chat} executor: one chat completion per rollout on the configuration's {@code executor} role. The
 * harness is the system message ({@link HarnessPrompt}); the task's instruction and its source files, each fenced as
 * untrusted data, are the user message; the reply is the deliverable ({@code output/<deliverable>}). The trajectory is
 * rendered in the shared grammar of spec §11.2 ({@code [HARNESS]}, {@code [USER]}, {@code [ASSISTANT]}, the usage
 * line), and the tokens and cost of the call are the rollout's spend. Each HTTP attempt of the call is recorded in
 * {@value EndpointProxy#CALL_LOG} in the run folder, as an agent CLI's calls are by its relay (the fields of
 * {@link EndpointProxy#open}), whether the call was answered or failed.
 */
public final class ChatExecutor implements Executor {
  static final int MAX_SOURCE_CHARS = 64_000;
  static final int MAX_SOURCES_CHARS = 400_000;
  private final ResolvedRole role;
  private final ChatClient client;

  ChatExecutor(ResolvedRole role, ChatClient client) {
    this.role = role;
    this.client = client;
  }

  /** It starts no program: a rollout is model calls made from h2beam, which see no file but what they are sent. */
  @Override public boolean isolates() {
    return true;
  }

  @Override public String identity() {
    return "chat:" + role.identity();
  }

  @Override public ExecResult run(ExecRequest r) throws IOException, InterruptedException {
    String system = HarnessPrompt.render(SurfaceSpec.OPENCODE, r.harnessDir());
    String user = userMessage(r);
    StringBuilder trajectory = new StringBuilder();
    trajectory.append("[HARNESS] ").append(system).append("\n\n[USER] ").append(user).append("\n\n");
    Path runDir = r.runDir();
    long t0 = System.nanoTime();
    try {
      ChatReply reply = client.complete(new ChatRequest(role.model(), List.of(ChatMessage.system(system),
          ChatMessage.user(user)), role.temperature(), role.maxTokens()));
      double wall = (System.nanoTime() - t0) / 1e9;
      trajectory.append("[ASSISTANT] ").append(reply.text()).append("\n\n").append(usageLine(reply.usage(),
          reply.model(), reply.finishReason())).append('\n');
      AtomicFiles.writeString(runDir.resolve("trajectory.md"), trajectory.toString());
      writeCalls(runDir, reply.calls());
      AtomicFiles.writeString(runDir.resolve("output").resolve(r.deliverable()), reply.text());
      // every attempt's tokens, as its cost counts every attempt; all of them only when every attempt was counted,
      // whatever the endpoint's prices (at a free one an unanswered attempt cost a known $0, its tokens unknown)
      Tokens t = EndpointProxy.Spend.tokens(reply.calls());
      return new ExecResult(runDir, null, wall, t.input(), t.output(), reply.costUsd(), "", "", reply.costKnown(),
          t.known());
    } catch (ChatException e) {
      double wall = (System.nanoTime() - t0) / 1e9;
      trajectory.append("[ERROR] ").append(e.getMessage()).append('\n');
      AtomicFiles.writeString(runDir.resolve("trajectory.md"), trajectory.toString());
      writeCalls(runDir, e.calls());
      // what its calls reported: a refusal (not billed) or no call at all spent a known none; an unanswered call
      // leaves the part counted, marked as such
      Tokens t = EndpointProxy.Spend.tokens(e.calls());
      return new ExecResult(runDir, null, wall, t.input(), t.output(), e.costUsd(), "model", e.getMessage(),
          e.costKnown(), t.known());
    }
  }

  /** The call's attempts as the run's call log; none made (refused before sending), no file. */
  private static void writeCalls(Path runDir, List<Map<String, Object>> calls) throws IOException {
    if (!calls.isEmpty()) AtomicFiles.writeString(runDir.resolve(EndpointProxy.CALL_LOG), ModelCall.jsonLines(calls));
  }

  /** The instruction, then every source file fenced (capped, with a visible note), binary files only named. */
  static String userMessage(ExecRequest r) throws IOException {
    StringBuilder sb = new StringBuilder(r.instruction().strip()).append('\n');
    Path source = r.sourceDir();
    if (source == null || !Files.isDirectory(source, LinkOption.NOFOLLOW_LINKS)) return sb.toString();
    int budget = MAX_SOURCES_CHARS;
    for (String rel : PathOrder.files(source)) {
      Path f = source.resolve(rel);
      if (Files.isSymbolicLink(f)) continue;
      if (budget <= 0) {
        sb.append("\n(source/").append(rel).append(" omitted: the source files passed ").append(MAX_SOURCES_CHARS)
            .append(" characters)\n");
        continue;
      }
      String text = TextFiles.readCapped(f, Math.min(MAX_SOURCE_CHARS, budget));
      budget -= text.length();
      sb.append('\n').append(Fences.untrusted("source/" + rel, text)).append('\n');
    }
    return sb.toString();
  }

  static String usageLine(Usage u, String model, String finish) {
    return "[HARNESS] turn completed | tokens in=" + orDash(u.promptTokens()) + " cached=" + orDash(u.cachedTokens())
        + " out=" + orDash(u.completionTokens()) + " reasoning=" + orDash(u.reasoningTokens())
        + (model.isEmpty() ? "" : " | model=" + model) + (finish.isEmpty() ? "" : " | finish=" + finish);
  }

  private static String orDash(Long v) {
    return v == null ? "-" : v.toString();
  }

  /** {@code executor: {"kind": "chat"}}. */
  public static final class Provider implements ExecutorProvider {
    @Override public String name() {
      return "chat";
    }

    @Override public Set<String> keys() {
      return Set.of();
    }

    @Override public Executor open(Map<String, Object> settings, Optional<ResolvedRole> role,
        Map<String, String> env) {
      // the same words whether no --config was given or the file lacks the role (dogAG B4): both fixes named
      ResolvedRole r = role.orElseThrow(() -> new IllegalArgumentException("the chat executor needs roles.executor"
          + " in --config (the endpoint and model that do the tasks): give --config=<file> with it, or add it to the"
          + " file given (examples/folder-bench/config.yaml has one)"));
      return new ChatExecutor(r, new ChatClient(r.endpoint(), env));
    }
  }
}
