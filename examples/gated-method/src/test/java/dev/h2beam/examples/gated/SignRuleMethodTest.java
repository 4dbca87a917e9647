package dev.h2beam.examples.gated;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.h2beam.transforms.gated.Manifest;
import dev.h2beam.transforms.gated.Mutation;
import dev.h2beam.transforms.gated.Proposal;
import dev.h2beam.transforms.gated.Rejection;
import dev.h2beam.transforms.gated.Sample;
import dev.h2beam.transforms.gated.TreeEntry;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The method's proposals, step by step, without a sweep: which fix comes next, and when it stops. */
class SignRuleMethodTest {
  static final String SCRIPT = "awk '{ amount = $2; if (amount > 0) total += amount }'\n";
  static final Map<String, String> BASE = tree("guardrails.md", "", "scripts/summarize.sh", SCRIPT);
  static final Manifest NONE = new Manifest(0, List.of());
  final SignRuleMethod method = new SignRuleMethod();

  @Test
  void aFailingSampleGetsTheRuleFirst() {
    Proposal p = propose(BASE, List.of(sample(0.0)), List.of());
    assertEquals(List.of(Mutation.update("guardrails.md", SignRuleMethod.RULE)), p.mutations());
  }

  @Test
  void onceTheRuleWasRefusedTheScriptLosesItsFilter() {
    Proposal rule = propose(BASE, List.of(sample(0.0)), List.of());
    Proposal p = propose(BASE, List.of(sample(0.0)), List.of(new Rejection(1, rule.mutations(), "0 wins")));
    assertEquals(List.of(Mutation.update("scripts/summarize.sh", "awk '{ amount = $2; total += amount }'\n")),
        p.mutations());
  }

  @Test
  void whenBothFixesWereRefusedNothingIsProposedAgain() {
    Proposal rule = propose(BASE, List.of(sample(0.0)), List.of());
    List<Rejection> one = List.of(new Rejection(1, rule.mutations(), "0 wins"));
    Proposal script = propose(BASE, List.of(sample(0.0)), one);
    Proposal p = propose(BASE, List.of(sample(0.0)),
        List.of(one.get(0), new Rejection(2, script.mutations(), "0 wins")));
    assertTrue(p.isNone(), p.toString());
  }

  @Test
  void aRefusedEditOfTheSameFileWithOtherTextDoesNotBlockTheRule() {
    Rejection other = new Rejection(1, List.of(Mutation.update("guardrails.md", "Be brief.\n")), "0 wins");
    Proposal p = propose(BASE, List.of(sample(0.0)), List.of(other));
    assertEquals(List.of(Mutation.update("guardrails.md", SignRuleMethod.RULE)), p.mutations());
  }

  @Test
  void aRuleAlreadyInTheHarnessIsSkipped() {
    Proposal p = propose(tree("guardrails.md", "Be brief.\n" + SignRuleMethod.RULE, "scripts/summarize.sh", SCRIPT),
        List.of(sample(0.0)), List.of());
    assertEquals("scripts/summarize.sh", p.mutations().get(0).path());
  }

  @Test
  void aHarnessWithoutRulesFileGetsOneCreated() {
    Proposal p = propose(tree("scripts/summarize.sh", SCRIPT), List.of(sample(0.0)), List.of());
    assertEquals(List.of(Mutation.create("guardrails.md", SignRuleMethod.RULE)), p.mutations());
  }

  @Test
  void everySamplePassingProposesNothing() {
    assertTrue(propose(BASE, List.of(sample(1.0), sample(1.0)), List.of()).isNone());
  }

  @Test
  void anEpisodeThatCouldNotRunCountsAsAFailure() {
    assertEquals(1, propose(BASE, List.of(sample(1.0), sample(null)), List.of()).mutations().size());
  }

  private Proposal propose(Map<String, String> files, List<Sample> samples, List<Rejection> rejected) {
    // null models: the method must never reach one
    return method.propose(TreeEntry.of(files), samples, null, rejected, NONE);
  }

  private static Sample sample(Double score) {
    return new Sample("base1", "base", "Total: 1.00\n", "", score);
  }

  private static Map<String, String> tree(String... pathThenText) {
    Map<String, String> m = new LinkedHashMap<>();
    for (int i = 0; i < pathThenText.length; i += 2) m.put(pathThenText[i], pathThenText[i + 1]);
    return m;
  }
}
