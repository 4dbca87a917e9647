package dev.h2beam.adapters.model;

import java.util.List;
import java.util.Locale;
import java.util.Objects;

/** Benchmark text slots interpolated into the method's shared prompts (spec §2.2). */
public record BenchPrompts(
    String work,
    String domainWord,
    String invLevers,
    String domLevers,
    String yardstick,
    String deliverableWord,
    String domainGuidance,
    String selectionChecks,
    String selectionLead,
    String selectionConformance,
    String promptPack) {

  private static final List<String> MEASUREMENT_WORDS =
      List.of("benchmark", "evaluation", "grader", "rubric", "score");

  public BenchPrompts {
    Objects.requireNonNull(work, "work");
    domainWord = orDefault(domainWord, "domain");
    invLevers = orDefault(invLevers, "");
    domLevers = orDefault(domLevers, "");
    yardstick = orDefault(yardstick, "");
    deliverableWord = orDefault(deliverableWord, "deliverable");
    domainGuidance = orDefault(domainGuidance, "");
    selectionChecks = orDefault(selectionChecks, "");
    selectionLead = orDefault(selectionLead, "");
    selectionConformance = orDefault(selectionConformance, "full");
    promptPack = orDefault(promptPack, "adapt");
    if (!promptPack.equals("adapt") && !promptPack.equals("tts")) {
      throw new IllegalArgumentException("prompt_pack must be 'adapt' or 'tts', got '" + promptPack + "'");
    }
    String[][] visible = {
      {"work", work}, {"inv_levers", invLevers}, {"dom_levers", domLevers}, {"yardstick", yardstick},
      {"domain_guidance", domainGuidance}, {"selection_checks", selectionChecks}
    };
    for (String[] slot : visible) {
      String lower = slot[1].toLowerCase(Locale.ROOT);
      for (String word : MEASUREMENT_WORDS) {
        if (lower.contains(word)) {
          throw new IllegalArgumentException(
              "prompt slot '" + slot[0] + "' mentions '" + word
                  + "': describe the work itself, never how it is measured");
        }
      }
    }
  }

  /** Prompts with only the work described; every other slot at its default. */
  public static BenchPrompts of(String work) {
    return new BenchPrompts(work, null, null, null, null, null, null, null, null, null, null);
  }

  private static String orDefault(String v, String d) {
    return v == null ? d : v;
  }
}
