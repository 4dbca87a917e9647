package dev.h2beam.adapters.llm;

import dev.h2beam.adapters.config.ResolvedRole;
import dev.h2beam.adapters.model.SessionResult;
import dev.h2beam.adapters.model.Tokens;
import dev.h2beam.adapters.proposer.EvidenceView;
import dev.h2beam.adapters.proposer.ProposerChannel;
import java.io.IOException;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The {@code openai} proposer channel: a session is a conversation with a chat-completions model that cannot run
 * tools. The evidence folder is quoted into the prompt ({@link EvidenceText}); selector ({@code select.*}) and
 * reflector ({@code experience.*}) sessions return the model's reply as it is, for the method to parse; any other
 * label is an improver stage, whose reply carries its edits as blocks that are applied to
 * {@code cwd/context/harness} ({@link EditBlocks}). A refused reply is sent back in the same conversation with the
 * reason, up to {@link #CORRECTIONS} times; a reply still refused after them ends the session as answered with its
 * edits refused ({@link SessionResult#refused}), not as a failed session: the endpoint answered every call, and a
 * failed session would point the user at the endpoint, model and key.
 *
 * <p>The session's token usage, the model id and finish reason of its last reply, and its cost (every call, failed
 * attempts that reported usage included) go into the result for the audit trail. The session timeout is checked
 * between calls; each call is bounded by the endpoint's own timeout and attempts.
 */
final class OpenAiChannel implements ProposerChannel {
  static final int CORRECTIONS = 2;

  static final String PREAMBLE = "You are an expert assistant working on the task below. You cannot run commands or"
      + " open files in this session: the files of the evidence folder context/ are quoted in the message, fenced as"
      + " data. Follow the task's instructions and answer in the format it asks for.";

  static final String EDIT_FORMAT = """


      ## How to answer in this session

      You cannot run tools, open files or edit them yourself here: the evidence is quoted below, and your edits are \
      applied from your reply. Where the task says to edit files in context/harness/, write each file you change or \
      add in full, and name each file you remove, as blocks in your reply:

      <file path="systemprompt.md">
      ...the file's complete new content...
      </file>
      <delete path="skills/old/SKILL.md"/>
      <notes>What you changed and why, briefly.</notes>

      - Paths are relative to context/harness/, with '/' between folders: no absolute paths, no '..'.
      - A <file> block replaces the whole file, so write every line you keep; its closing </file> stands alone on \
      its own line. One file may hold at most 256 KiB.
      - Files you do not mention stay as they are. Text outside the blocks is ignored, except <notes>.
      - If any block is refused, nothing from the reply is applied and you are told why.
      """;

  private static final SecureRandom RANDOM = new SecureRandom();

  private final ResolvedRole role;
  private final ChatClient client;

  OpenAiChannel(ResolvedRole role, Map<String, String> env) {
    this(role, new ChatClient(role.endpoint(), env));
  }

  OpenAiChannel(ResolvedRole role, ChatClient client) {
    this.role = role;
    this.client = client;
  }

  @Override
  public SessionResult run(Path cwd, String mission, String system, String label, Duration timeout)
      throws IOException, InterruptedException {
    return run(cwd, EvidenceView.of(cwd.toAbsolutePath().normalize().resolve("context")), mission, system, label,
        timeout);
  }

  /** The evidence is quoted from the method's view; only the edits are written, in {@code cwd/context/harness}. */
  @Override
  public boolean readsEvidenceFromMemory() {
    return true;
  }

  @Override
  public SessionResult run(Path cwd, EvidenceView evidence, String mission, String system, String label,
      Duration timeout) throws IOException, InterruptedException {
    boolean improver = !(label.startsWith("select.") || label.startsWith("experience."));
    Path context = cwd.toAbsolutePath().normalize().resolve("context");
    List<ChatMessage> messages = new ArrayList<>();
    messages.add(ChatMessage.system(system == null || system.isBlank() ? PREAMBLE : system));
    messages.add(ChatMessage.user(mission + (improver ? EDIT_FORMAT + "\n" : "\n\n")
        + EvidenceText.render(evidence, RANDOM)));
    Tally tally = new Tally();
    long deadline = System.nanoTime() + timeout.toNanos();
    String refused = "";
    for (int call = 0; call <= CORRECTIONS; call++) {
      if (call > 0 && System.nanoTime() > deadline) {
        return tally.failed("the session used up its " + timeout.toSeconds() + " s before the edits were accepted;"
            + " last refusal: " + refused);
      }
      ChatReply reply;
      tally.sent = List.copyOf(messages);
      try {
        reply = client.complete(new ChatRequest(role.model(), messages, role.temperature(), role.maxTokens()));
      } catch (ChatException e) {
        tally.cost += e.costUsd();
        tally.costKnown &= e.costKnown();
        tally.calls.addAll(e.calls());
        return tally.failed(e.getMessage());
      }
      tally.add(reply);
      if (!improver) return tally.reply(reply.text());
      EditBlocks.Outcome outcome = EditBlocks.apply(reply.text(), context.resolve("harness"));
      if (outcome instanceof EditBlocks.Applied applied) return tally.reply(applied.text());
      refused = ((EditBlocks.Refused) outcome).reason();
      messages.add(ChatMessage.assistant(reply.text()));
      messages.add(ChatMessage.user("Nothing from your last answer was applied: " + refused + ".\nAnswer again with"
          + " the complete set of blocks (every file you change, in full), fixing that."));
    }
    // the last reason alone, with no count: the session is one attempt of its stage, which counts its attempts
    return tally.refused(refused);
  }

  /** What a session's calls add up to. */
  private static final class Tally {
    private Usage usage;
    private String model = "";
    private String finishReason = "";
    private double cost;
    /** Whether {@link #cost} is all the calls cost ({@link ChatReply#costKnown} of every call). */
    private boolean costKnown = true;
    /** Every HTTP attempt of every call of the session, in order ({@link ChatReply#calls}). */
    private final List<Map<String, Object>> calls = new ArrayList<>();
    /** The messages of the last call sent, whole: what the model was shown, byte for byte. */
    private List<ChatMessage> sent;

    void add(ChatReply r) {
      usage = usage == null ? r.usage() : usage.plus(r.usage());
      model = r.model();
      finishReason = r.finishReason();
      cost += r.costUsd();
      costKnown &= r.costKnown();
      calls.addAll(r.calls());
    }

    /** The usage, model and finish reason when a call answered (else none of them), and the calls made. */
    Map<String, Object> meta() {
      Map<String, Object> m = new LinkedHashMap<>();
      if (usage != null) {
        m.put(SessionResult.USAGE, usage.toMap());
        m.put(SessionResult.MODEL_ID, model);
        m.put(SessionResult.FINISH_REASON, finishReason);
      }
      m.put(SessionResult.MODEL_CALLS, List.copyOf(calls));
      if (sent != null) {
        List<Map<String, String>> prompt = new ArrayList<>();
        for (ChatMessage c : sent) {
          Map<String, String> one = new LinkedHashMap<>();
          one.put("role", c.role());
          one.put("content", c.content());
          prompt.add(one);
        }
        m.put(SessionResult.PROMPT, prompt);
      }
      return m;
    }

    SessionResult reply(String text) {
      return new SessionResult(text, cost, "", meta(), costKnown, tokens());
    }

    /**
     * An answer whose edits were refused, and why. Its text says so rather than quoting the reply: a refused block
     * (a path escape, a file over the limit) may hold anything, a credential too, and the text is kept as the reply.
     */
    SessionResult refused(String reason) {
      return new SessionResult("[the model's edits were refused, and none was applied: " + reason + "]", cost, "",
          meta(), costKnown, tokens(), reason);
    }

    SessionResult failed(String error) {
      return new SessionResult("", cost, error, meta(), costKnown, tokens());
    }

    /** The tokens every call of the session reported; not all of them when any call's cost is not known. */
    private Tokens tokens() {
      Tokens t = EndpointProxy.Spend.tokens(calls);
      return costKnown ? t : t.partial();
    }
  }
}
