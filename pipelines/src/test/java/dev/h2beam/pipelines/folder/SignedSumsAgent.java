package dev.h2beam.pipelines.folder;

import dev.h2beam.adapters.agents.AgentModel;
import dev.h2beam.adapters.agents.AgentModel.Conversation;
import dev.h2beam.adapters.agents.AgentModel.Turn;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The worked example's scripted model behind the real agent CLIs: it acts through their tools (shell commands to read
 * files, file writes for deliverables and harness edits) and decides every turn from the conversation so far. As the
 * executor it reads the CSV and writes {@code output/answer.md}, keeping the sign of each amount only when the
 * harness text it was given says to; as the improver it reads {@code MISSION.md} and the harness and rewrites the
 * magnitude rule; as the selector it reads the source and the candidates and picks the one with the signed total; as
 * the reflector it compares the adopted harness with the base.
 */
public final class SignedSumsAgent implements AgentModel.Brain {
  static final String HARNESS_FILES = "for f in context/harness/systemprompt.md context/harness/AGENTS.md; do"
      + " [ -f \"$f\" ] && { echo \"FILE $f\"; cat \"$f\"; }; done";
  static final String CANDIDATES = "cat context/source/movements.csv; for f in context/candidates/*.md; do"
      + " echo \"CANDIDATE $f\"; cat \"$f\"; done";
  static final String COMPARE = "if diff -r context/harness context/base_harness >/dev/null 2>&1; then echo SAME;"
      + " else echo DIFFERENT; fi";

  @Override public Turn next(Conversation c) {
    List<String> results = c.toolResults();
    if (!c.prompt().contains("MISSION.md")) return execute(c, results);
    if (results.isEmpty()) return new Turn.Command("cat MISSION.md");
    String mission = results.get(0);
    if (mission.contains("```choice")) return select(results);
    if (mission.contains("NO_ENTRY")) return reflect(results);
    return improve(results);
  }

  private static Turn execute(Conversation c, List<String> results) {
    if (results.isEmpty()) return new Turn.Command("cat source/movements.csv");
    if (results.size() == 1) {
      Matcher form = Pattern.compile("`(\\w+): <sum>`").matcher(c.prompt());
      String label = form.find() ? form.group(1) : "Total";
      boolean signed = c.instructions().toLowerCase(Locale.ROOT).contains("keep the sign");
      return new Turn.WriteFile("output/answer.md", label + ": "
          + SignedSumsModel.sum(SignedSumsModel.amounts(results.get(0)), signed).toPlainString() + "\n");
    }
    return new Turn.Say("I wrote output/answer.md.");
  }

  private static Turn improve(List<String> results) {
    if (results.size() == 1) return new Turn.Command(HARNESS_FILES);
    Matcher file = Pattern.compile("FILE (\\S+)\\n").matcher(results.get(1));
    String notes = "The rollouts added magnitudes although the task says credits are negative; the harness now says"
        + " to keep the sign of every amount.";
    if (results.size() == 2) {
      if (!file.find() || !results.get(1).contains(SignedSumsModel.MAGNITUDES)) {
        return new Turn.WriteFile("output/answer.md", "<notes>The harness already keeps the sign.</notes>\n");
      }
      String text = results.get(1).substring(file.end());
      int next = text.indexOf("FILE context/harness/");
      if (next >= 0) text = text.substring(0, next);
      return new Turn.WriteFile(file.group(1), text.replace(SignedSumsModel.MAGNITUDES, SignedSumsModel.SIGNED));
    }
    if (results.size() == 3) return new Turn.WriteFile("output/answer.md", "<notes>" + notes + "</notes>\n");
    return new Turn.Say("<notes>" + notes + "</notes>");
  }

  private static Turn select(List<String> results) {
    if (results.size() == 1) return new Turn.Command(CANDIDATES);
    if (results.size() == 2) {
      String out = results.get(1);
      String total = ": " + SignedSumsModel.sum(SignedSumsModel.amounts(out), true).toPlainString();
      Matcher m = Pattern.compile("CANDIDATE context/candidates/([A-Za-z0-9_-]+)\\.md\\n([^\\n]*\\n){0,6}").matcher(out);
      String answer = "<why>No candidate reports the signed total of the source.</why>\n";
      while (m.find()) {
        if (m.group().contains(total)) {
          answer = "<why>Candidate " + m.group(1) + " reports the signed total.</why>\n\n```choice\n" + m.group(1)
              + "\n```\n";
          break;
        }
      }
      return new Turn.WriteFile("output/answer.md", answer);
    }
    return new Turn.Say("I saved my choice to output/answer.md.");
  }

  private static Turn reflect(List<String> results) {
    if (results.size() == 1) return new Turn.Command(COMPARE);
    if (results.size() == 2) {
      boolean changed = results.get(1).contains("DIFFERENT");
      String edits = "<edits>\ncomponent: systemprompt.md\ncandidates: inv1\nchange: keep the sign of every amount\n"
          + "observed: the totals now subtract credits\nverdict: " + (changed ? "helped" : "no observed effect")
          + "\n</edits>\n\n";
      return new Turn.WriteFile("output/answer.md", edits + (changed ? "<experience>\ncue: a file lists signed"
          + " movements and the task asks for their net\nlesson: tell the agent to keep the sign of every amount\n"
          + "evidence: the harness edit turned magnitude sums into signed totals\nconfidence: high\n</experience>\n"
          : "NO_ENTRY\n"));
    }
    return new Turn.Say("I saved the records to output/answer.md.");
  }
}
