package dev.h2beam.adapters.exec;

import com.fasterxml.jackson.databind.JsonNode;
import dev.h2beam.adapters.files.Runmark;
import dev.h2beam.adapters.model.Rollout;
import dev.h2beam.adapters.model.Tokens;
import java.io.IOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The completion marker of an executor's rollout, as the benchmarks that run an {@link Executor} write and read it:
 * on top of {@link Runmark}'s fields, the digest of every deliverable, the executor's spend ({@code cost_usd},
 * {@code wall_s}, {@code input_tokens}, {@code output_tokens}; an unobserved count stays null; {@code cost_known}
 * false when {@code cost_usd} is only part of it, {@code tokens_known} false when the counts are only the part
 * counted), its identity and the task folder. A reused rollout reports the spend recorded here, so a resumed run
 * records what a clean one does.
 */
public final class RolloutMarker {
  private RolloutMarker() {}

  /** The rollout a marker recorded, reused: its run dir with the spend it had. */
  public static Rollout reused(Path runDir, JsonNode mark) {
    // a marker written before cost_known was recorded priced every call it counted; one without a cost (not an
    // h2beam marker's) has a spend not known, never a known zero (dogAJ, unconfirmed 4)
    boolean known = mark.path("cost_known").asBoolean(true) && mark.path("cost_usd").isNumber();
    return new Rollout(runDir, true, mark.path("cost_usd").asDouble(0.0), mark.path("wall_s").asDouble(0.0), known,
        tokens(mark));
  }

  /**
   * The tokens a marker records: its counts (a missing or unreadable one: not observed), all of them only when
   * neither {@code tokens_known} nor {@code cost_known} is false. A marker written before {@code tokens_known} was
   * recorded marked counts left out by its cost alone; one whose cost is not known and whose tokens are all counted
   * is read as the part counted, which no executor writes today.
   */
  public static Tokens tokens(JsonNode mark) {
    // tokens_known as every record of h2beam's reads it: absent, all counted; anything but true, not all
    JsonNode counted = mark.get("tokens_known");
    boolean whole = (counted == null || (counted.isBoolean() && counted.booleanValue()))
        && mark.path("cost_known").asBoolean(true);
    return Tokens.observed(Tokens.count(mark.get("input_tokens")), Tokens.count(mark.get("output_tokens")), whole);
  }

  /**
   * Marks a finished rollout complete in {@code markDir} and returns it.
   *
   * @param deliverables the digests of its deliverables ({@link Runmark#digests})
   * @param at the time to record, in seconds (the caller's clock, so logic stays free of clocks)
   */
  public static Rollout complete(Path markDir, Path runDir, String runId, String fingerprint, double at,
      Map<String, Object> deliverables, ExecResult r, String executor, Path taskDir) throws IOException {
    Map<String, Object> extra = new LinkedHashMap<>();
    extra.put("deliverables", deliverables);
    extra.put("cost_usd", r.costUsd());
    // written only when false, as everywhere: a marker without it priced every call it counted
    if (!r.costKnown()) extra.put("cost_known", false);
    extra.put("wall_s", r.wallS());
    extra.put("input_tokens", r.inputTokens());
    extra.put("output_tokens", r.outputTokens());
    // only when false, like cost_known, and then even beside a known cost: a free endpoint's uncounted call
    if (!r.tokensKnown()) extra.put("tokens_known", false);
    extra.put("executor", executor);
    extra.put("task_dir", taskDir.toString());
    Runmark.markComplete(markDir, runId, fingerprint, at, extra);
    return new Rollout(runDir, false, r.costUsd(), r.wallS(), r.costKnown(), r.tokens());
  }
}
