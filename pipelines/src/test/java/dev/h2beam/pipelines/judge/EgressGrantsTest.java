package dev.h2beam.pipelines.judge;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.h2beam.adapters.config.ReferenceGrant;
import dev.h2beam.adapters.config.RunConfig;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The grant check over a whole judge run, without a pipeline (the end-to-end refusals are in ReferenceGrantTest). */
class EgressGrantsTest {
  static final RunConfig CONFIG = RunConfig.parse("""
      endpoints: {local: {base_url: "http://127.0.0.1:8000/v1"}}
      roles: {judge: {endpoint: local, model: judge-model}}
      grants:
        - {benchmark: granted, endpoint: local, model: judge-model, references: grading/rubric.json}
        - {benchmark: unused, endpoint: local, model: judge-model, references: grading/rubric.json}
      """, "cfg.yaml");

  static EgressGrants.Judged rubric(String ns, String bench) {
    return new EgressGrants.Judged("/runs/" + ns, bench, "rubric",
        Optional.of(new ReferenceGrant(bench, "local", "judge-model", "grading/rubric.json")));
  }

  static EgressGrants.Judged expected(String ns, String bench) {
    return new EgressGrants.Judged("/runs/" + ns, bench, "expected", Optional.empty());
  }

  @Test
  void aMatchingGrantAndGrantsForBenchmarksNotJudgedHereLetTheRunGo() {
    assertEquals(List.of(), EgressGrants.problems(CONFIG, "cfg.yaml",
        List.of(rubric("granted-oc-agg1", "granted"), rubric("granted-oc-agg1-s1", "granted"),
            expected("other-oc-agg1", "other"))));
  }

  @Test
  void aMissingGrantIsNamedOncePerBenchmarkWithEveryNamespaceThatNeedsIt() {
    List<String> problems = EgressGrants.problems(CONFIG, "cfg.yaml",
        List.of(rubric("new-oc-agg1", "new"), rubric("new-oc-agg1-s1", "new")));
    assertEquals(1, problems.size(), problems.toString());
    assertTrue(problems.get(0).startsWith("new-oc-agg1, new-oc-agg1-s1: the judge of benchmark new sends"
        + " grading/rubric.json to endpoint local (model judge-model), and cfg.yaml grants no reference egress for"
        + " new; if those references may go to that model, add this entry to its grants: list: {benchmark: \"new\","
        + " endpoint: \"local\", model: \"judge-model\", references: \"grading/rubric.json\"}"), problems.get(0));
  }

  @Test
  void aGrantIsSuperfluousOnlyWhenNoGraderOfItsBenchmarkSendsReferences() {
    assertEquals(List.of(), EgressGrants.problems(CONFIG, "cfg.yaml",
        List.of(rubric("granted-oc-agg1", "granted"), expected("granted-oc-seq1", "granted"))));
    assertEquals(List.of("cfg.yaml: grants[0] (benchmark granted) grants reference egress, but its judge here"
        + " (--grader=expected) sends no reference to any model, so the grant permits nothing; remove it"),
        EgressGrants.problems(CONFIG, "cfg.yaml", List.of(expected("granted-oc-agg1", "granted"))));
  }

  @Test
  void anAlteredGrantNamesEveryFieldThatDiffers() {
    Optional<String> p = EgressGrants.problem(CONFIG, "cfg.yaml",
        new ReferenceGrant("granted", "local", "judge-model-2", "grading/notes.md"));
    assertTrue(p.orElseThrow().contains("grants[0] (benchmark granted) does not match the judge: model is"
        + " \"judge-model\" in the grant but \"judge-model-2\" for the judge; references is \"grading/rubric.json\" in"
        + " the grant but \"grading/notes.md\" for the judge;"), p.get());
  }
}
