package dev.h2beam.transforms.recursion;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.h2beam.adapters.files.Json;
import dev.h2beam.adapters.model.RunView;
import dev.h2beam.adapters.model.SessionResult;
import dev.h2beam.adapters.proposer.ProposerChannel;
import dev.h2beam.transforms.gated.Episode;
import dev.h2beam.transforms.gated.GateTask;
import dev.h2beam.transforms.gated.GatedMethod;
import dev.h2beam.transforms.gated.Manifest;
import dev.h2beam.transforms.gated.Models;
import dev.h2beam.transforms.gated.Mutation;
import dev.h2beam.transforms.gated.Proposal;
import dev.h2beam.transforms.gated.Rejection;
import dev.h2beam.transforms.gated.Sample;
import dev.h2beam.transforms.gated.TreeEntry;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalDouble;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * dogF #3: a gated method (a plug-in) that proposes a path outside the harness tree ({@code ../../escape.txt}, an
 * absolute path, a backslash, an empty segment) or off the editable surface had its candidate counted but never
 * rolled, and the reason lost. Each is refused before rolling, like an update of a missing file: the step records
 * {@code proposal: "refused"}, re-rolls the current harness as {@code r<j>}, and its decision names the path problem.
 */
class GatedPathEscapeTest {
  @TempDir Path root;

  /** A method that proposes the next of {@code proposals} at each step and scores every episode 1. */
  private static GatedMethod proposing(List<Mutation> proposals) {
    List<Mutation> left = new ArrayList<>(proposals);
    return new GatedMethod() {
      @Override public String name() {
        return "escaping";
      }

      @Override public String description() {
        return "proposes paths outside the harness";
      }

      @Override public boolean needsChecks() {
        return false;
      }

      @Override public Proposal propose(List<TreeEntry> tree, List<Sample> samples, Models models,
          List<Rejection> rejected, Manifest manifest) {
        return Proposal.of(List.of(left.remove(0)), "try a path");
      }

      @Override public OptionalDouble evaluate(GateTask task, Episode episode) {
        return OptionalDouble.of(1);
      }
    };
  }

  private ModeResult run(GatedMethod method) throws Exception {
    ProposerChannel none = (cwd, mission, system, label, timeout) -> SessionResult.reply("", 0);
    return GatedRefusedProposalTest.gated(root, root.resolve("a").resolve("b").resolve("runs"), none, method);
  }

  @Test
  void aPathOutsideTheTreeIsRefusedBeforeRollingAndTheCurrentHarnessReRolled() throws Exception {
    ModeResult res = run(proposing(List.of(Mutation.create("../../escape.txt", "x"),
        Mutation.create("/etc/abs.txt", "x"), Mutation.update("skills\\x\\SKILL.md", "x"))));
    JsonNode gate = Json.MAPPER.valueToTree(res.toJson()).path("gate");
    List<String> reasons = new ArrayList<>();
    for (int j = 0; j < 3; j++) {
      JsonNode step = gate.at("/steps/" + j);
      assertEquals("refused", step.path("proposal").asText(), step.toString());
      assertEquals("r" + (j + 1), step.path("rollout").asText(), step.toString());
      reasons.add(step.at("/decision/reason").asText());
    }
    assertTrue(reasons.get(0).startsWith("proposal refused before rolling: create ../../escape.txt: the path"
        + " escapes the harness tree ('..'); name a file by its path relative to the harness root"), reasons.get(0));
    assertTrue(reasons.get(1).startsWith("proposal refused before rolling: create /etc/abs.txt: the path is"
        + " absolute"), reasons.get(1));
    assertTrue(reasons.get(2).startsWith("proposal refused before rolling: update skills\\x\\SKILL.md: the path"
        + " holds a backslash"), reasons.get(2));
    assertEquals(3, gate.path("rejected").asInt(), gate.toString());
    assertEquals(0, gate.path("skipped").asInt(), gate.toString());
    // every rollout the ledger counts ran: the base and three re-rolls, no candidate
    assertEquals(List.of("base1", "r1", "r2", "r3"), new ArrayList<>(res.rollouts.keySet()));
    for (RunView ep : res.rollouts.values()) assertTrue(ep.ok(), ep.label() + ": " + ep.error());
    try (Stream<Path> walk = Files.walk(root)) {
      assertFalse(walk.anyMatch(p -> p.getFileName().toString().equals("escape.txt")), "a file escaped the tree");
    }
  }

  /**
   * dogG D3: a step an interrupted run took the other way (its session cancelled, so a re-roll, or the reverse) left
   * that label's harness folder, which the resumed run never used: a step removes its other label's folder.
   */
  @Test
  void aStepRemovesTheHarnessFolderItsOtherLabelLeft() throws Exception {
    Path work = dev.h2beam.adapters.model.Namespace.of("gtest", "oc", "gat", 1)
        .taskDir(root.resolve("a").resolve("b").resolve("runs"), "ledger-1");
    Path leftover = Files.createDirectories(work.resolve("harnesses/g1")).resolve("systemprompt.md");
    Files.writeString(leftover, "an interrupted run's candidate\n");
    run(proposing(List.of(Mutation.create("../x", "x"), Mutation.create("../y", "y"), Mutation.create("../z", "z"))));
    assertFalse(Files.exists(work.resolve("harnesses/g1")), "the interrupted run's g1 is gone");
    assertTrue(Files.isDirectory(work.resolve("harnesses/r1")), "the step's own re-roll is there");
  }

  @Test
  void anEmptySegmentOrAFileOffTheSurfaceIsRefusedNamingIt() throws Exception {
    ModeResult res = run(proposing(List.of(Mutation.create("skills//x.md", "x"), Mutation.create("notes.txt", "x"),
        Mutation.create("", "x"))));
    JsonNode steps = Json.MAPPER.valueToTree(res.toJson()).path("gate").path("steps");
    assertTrue(steps.at("/0/decision/reason").asText().contains("create skills//x.md: the path has an empty segment"),
        steps.toString());
    assertTrue(steps.at("/1/decision/reason").asText().contains("files outside the editable surface: [notes.txt]"),
        steps.toString());
    assertTrue(steps.at("/2/decision/reason").asText().contains("create : the path is empty"), steps.toString());
    for (JsonNode step : steps) assertEquals("refused", step.path("proposal").asText(), step.toString());
  }
}
