package dev.h2beam.transforms.safety;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Screens untrusted text (a request, source material, a lesson) before the method keeps it or shows it to a model:
 * instruction overrides, forged system prompts, chat-template control tokens, and credentials. Text with findings is
 * skipped, not repaired, because no rewrite can be trusted to remove every way of speaking as the prompt's author.
 */
public final class OverrideScreen {

  private record Rule(Pattern pattern, String reason) {}

  private static final List<Rule> RULES = List.of(
      new Rule(Pattern.compile("(?i)\\bignore\\s+(?:all\\s+)?(?:the\\s+)?previous\\s+instructions\\b"),
          "tries to override the prompt's instructions"),
      new Rule(Pattern.compile("(?i)\\bignore\\s+the\\s+above\\b"), "tries to override the prompt's instructions"),
      new Rule(Pattern.compile("(?i)\\bdisregard\\s+(?:all\\s+)?(?:previous|prior)\\s+instructions\\b"),
          "tries to override the prompt's instructions"),
      new Rule(Pattern.compile("(?im)^[ \\t>]*(?:new[ \\t]+)?system[ \\t]+prompt[ \\t]*:"), "forges a system prompt"),
      new Rule(Pattern.compile(
              "<\\|(?:im_start|im_end|im_sep|system|user|assistant|endoftext|begin_of_text|end_of_text"
                  + "|start_header_id|end_header_id|eot_id)\\|>|\\[/?INST\\]|<</?SYS>>"),
          "carries a chat-template control token"));

  private OverrideScreen() {}

  /**
   * Returns the reasons {@code text} must not be trusted, in line order, e.g. {@code line 3 tries to override the
   * prompt's instructions ("Ignore all previous instructions")}; empty when the text is clean.
   */
  public static List<String> findings(String text) {
    List<Finding> found = new ArrayList<>();
    for (Rule rule : RULES) {
      Matcher m = rule.pattern.matcher(text);
      while (m.find()) {
        String quoted = m.group().strip().replaceAll("\\s+", " ");
        found.add(new Finding(lineOf(text, m.start()), rule.reason + " (\"" + quoted + "\")"));
      }
    }
    for (CredentialScreen.Hit h : CredentialScreen.hits(text)) {
      found.add(new Finding(h.line(), "holds what looks like a credential (" + h.sample() + ")"));
    }
    found.sort(Comparator.comparingInt(Finding::line)); // stable: rule order breaks ties
    List<String> out = new ArrayList<>();
    for (Finding f : found) out.add("line " + f.line + " " + f.reason);
    return out;
  }

  private record Finding(int line, String reason) {}

  private static int lineOf(String text, int offset) {
    int line = 1;
    for (int i = 0; i < offset; i++) {
      char c = text.charAt(i);
      if (c == '\n' || (c == '\r' && (i + 1 >= text.length() || text.charAt(i + 1) != '\n'))) line++;
    }
    return line;
  }
}
