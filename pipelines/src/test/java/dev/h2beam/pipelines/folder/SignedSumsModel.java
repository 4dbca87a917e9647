package dev.h2beam.pipelines.folder;

import com.fasterxml.jackson.databind.JsonNode;
import dev.h2beam.adapters.llm.ScriptedModelServer;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A scripted model for the worked example (examples/folder-bench) that behaves like a model: every answer depends on
 * what the request contains. As the executor it totals the CSV it is shown, keeping the sign of each amount only
 * when the system message (the harness) tells it to, else adding magnitudes; as the improver it edits the harness
 * it is shown so that it says to keep the sign; as the selector it picks the candidate whose line matches the signed
 * total of the source it is shown; as the reflector it writes a lesson when the adopted harness differs from the
 * base; as the rubric judge it checks the criteria it is given against the work it is shown.
 *
 * <p>The server calls it on many threads at once, so it keeps nothing between requests: a map of calls per kind it
 * once kept (a LinkedHashMap, never read) threw ConcurrentModificationException when two first calls of a kind met,
 * and the server closed that request's connection unanswered, which h2beam recorded as a retried call of cost and
 * tokens not known (FolderGatedTest, under load).
 */
public final class SignedSumsModel implements ScriptedModelServer.Brain {
  static final String MAGNITUDES = "Amounts are magnitudes: add them up as they are listed.";
  static final String SIGNED = "Keep the sign of every amount: negative amounts (credits, issues) reduce the total.";
  private static final Pattern FENCE = Pattern.compile(
      "<<<BEGIN FILE (\\S+) ([0-9a-f]+)>>>\\n(.*?)<<<END FILE \\2>>>", Pattern.DOTALL);
  private static final Pattern ANSWER_FORM = Pattern.compile("`(\\w+): <sum>`");

  /** A request's system prompt and its whole conversation, in that order. */
  static String[] systemAndText(JsonNode request) {
    String system = "";
    StringBuilder all = new StringBuilder();
    for (JsonNode m : request.path("messages")) {
      String content = m.path("content").asText("");
      if (m.path("role").asText().equals("system")) system += content;
      all.append(content).append('\n');
    }
    return new String[] {system, all.toString()};
  }

  /** Which kind of session sent {@code request} ({@link #kind(String, String)}). */
  static String kindOf(JsonNode request) {
    String[] st = systemAndText(request);
    return kind(st[0], st[1]);
  }

  @Override public String answer(JsonNode request) {
    String[] st = systemAndText(request);
    String system = st[0];
    String text = st[1];
    return switch (kind(system, text)) {
      case "judge" -> judge(text);
      case "selector" -> select(text);
      case "reflector" -> reflect(text);
      case "improver" -> improve(text);
      default -> execute(system, text);
    };
  }

  static String kind(String system, String text) {
    if (system.contains("You grade one piece of work against a rubric")) return "judge";
    if (text.contains("```choice")) return "selector";
    if (text.contains("NO_ENTRY")) return "reflector";
    if (text.contains("<file path=")) return "improver";
    return "executor";
  }

  /** Fenced files of the request: label → text. */
  static Map<String, String> files(String text) {
    Map<String, String> out = new LinkedHashMap<>();
    Matcher m = FENCE.matcher(text);
    while (m.find()) out.putIfAbsent(m.group(1), m.group(3));
    return out;
  }

  /** The file whose label is {@code rel} or ends with {@code /rel}, or null. */
  static String fileEndingWith(Map<String, String> files, String rel) {
    for (Map.Entry<String, String> e : files.entrySet()) {
      if (e.getKey().equals(rel) || e.getKey().endsWith("/" + rel)) return e.getValue();
    }
    return null;
  }

  static List<BigDecimal> amounts(String csv) {
    List<BigDecimal> out = new ArrayList<>();
    for (String line : csv.split("\n")) {
      String[] f = line.split(",");
      String last = f[f.length - 1].strip();
      if (last.matches("-?\\d+(\\.\\d+)?")) out.add(new BigDecimal(last));
    }
    return out;
  }

  static BigDecimal sum(List<BigDecimal> xs, boolean signed) {
    BigDecimal s = BigDecimal.ZERO;
    for (BigDecimal x : xs) s = s.add(signed ? x : x.abs());
    return s.setScale(2);
  }

  private static String execute(String system, String text) {
    String csv = fileEndingWith(files(text), "movements.csv");
    Matcher form = ANSWER_FORM.matcher(text);
    String label = form.find() ? form.group(1) : "Total";
    if (csv == null) return "I could not find the movements to total.";
    boolean signed = system.toLowerCase(Locale.ROOT).contains("keep the sign");
    return label + ": " + sum(amounts(csv), signed).toPlainString() + "\n";
  }

  private static String improve(String text) {
    String prompt = fileEndingWith(files(text), "harness/systemprompt.md");
    if (prompt == null || !prompt.contains(MAGNITUDES)) {
      return "<notes>The harness already keeps the sign of every amount; no change.</notes>\n";
    }
    return "<file path=\"systemprompt.md\">\n" + prompt.replace(MAGNITUDES, SIGNED).strip() + "\n</file>\n"
        + "<notes>The rollouts added magnitudes although the task says credits are negative; the system prompt now"
        + " says to keep the sign of every amount.</notes>\n";
  }

  private static String select(String text) {
    Map<String, String> files = files(text);
    String csv = fileEndingWith(files, "movements.csv");
    if (csv != null) {
      String total = ": " + sum(amounts(csv), true).toPlainString();
      for (Map.Entry<String, String> e : files.entrySet()) {
        Matcher id = Pattern.compile("candidates/([A-Za-z0-9_-]+)\\.md$").matcher(e.getKey());
        if (id.find() && e.getValue().contains(total)) {
          return "<why>Candidate " + id.group(1) + " reports the signed total of the source.</why>\n\n```choice\n"
              + id.group(1) + "\n```\n";
        }
      }
    }
    return "<why>No candidate reports the signed total of the source, so none is chosen.</why>\n";
  }

  private static String reflect(String text) {
    Map<String, String> files = files(text);
    String adopted = fileEndingWith(files, "harness/systemprompt.md");
    String base = fileEndingWith(files, "base_harness/systemprompt.md");
    boolean changed = adopted != null && base != null && !adopted.equals(base);
    String edits = "<edits>\ncomponent: systemprompt.md\ncandidates: inv1\nchange: keep the sign of every amount\n"
        + "observed: the totals now subtract credits\nverdict: " + (changed ? "helped" : "no observed effect")
        + "\n</edits>\n\n";
    return edits + (changed ? "<experience>\ncue: a file lists signed movements and the task asks for their net\n"
        + "lesson: tell the agent to keep the sign of every amount instead of adding magnitudes\n"
        + "evidence: the systemprompt.md edit turned the magnitude sums into signed totals\nconfidence: high\n"
        + "</experience>\n" : "NO_ENTRY\n");
  }

  private static String judge(String text) {
    String work = fileEndingWith(files(text), "deliverable");
    StringBuilder sb = new StringBuilder("{\"criteria\": [");
    Matcher c = Pattern.compile("(?m)^- (\\w+): (.*)$").matcher(text);
    boolean first = true;
    while (c.find()) {
      String id = c.group(1);
      String criterion = c.group(2);
      boolean passed;
      Matcher amount = Pattern.compile("The amount is (-?\\d+\\.\\d{2})").matcher(criterion);
      if (amount.find()) {
        passed = work != null && work.strip().endsWith(": " + amount.group(1));
      } else {
        passed = work != null && work.strip().matches("\\w+: -?\\d+\\.\\d{2}");
      }
      sb.append(first ? "" : ", ").append("{\"id\": \"").append(id).append("\", \"passed\": ").append(passed)
          .append(", \"reason\": \"checked against the work\"}");
      first = false;
    }
    return sb.append("]}").toString();
  }
}
