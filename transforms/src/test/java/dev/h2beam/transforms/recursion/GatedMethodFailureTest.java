package dev.h2beam.transforms.recursion;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.h2beam.adapters.config.EnvKeys;
import dev.h2beam.adapters.files.Json;
import dev.h2beam.adapters.model.ChannelSpec;
import dev.h2beam.adapters.model.Namespace;
import dev.h2beam.adapters.model.RunView;
import dev.h2beam.adapters.model.SessionResult;
import dev.h2beam.transforms.gated.Decision;
import dev.h2beam.transforms.gated.Episode;
import dev.h2beam.transforms.gated.GateTask;
import dev.h2beam.transforms.gated.GatedMethod;
import dev.h2beam.transforms.gated.Manifest;
import dev.h2beam.transforms.gated.Models;
import dev.h2beam.transforms.gated.Mutation;
import dev.h2beam.transforms.gated.Policies;
import dev.h2beam.transforms.gated.Proposal;
import dev.h2beam.transforms.gated.Rejection;
import dev.h2beam.transforms.gated.Sample;
import dev.h2beam.transforms.gated.SelectionPolicy;
import dev.h2beam.transforms.gated.TreeEntry;
import dev.h2beam.transforms.proposer.Limits;
import dev.h2beam.transforms.proposer.Proposer;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * dogF #4, #5, #8, #10: a gated method that fails its calls, or a plug-in that cannot work here, is said so. A
 * method that throws, returns null or scores NaN has each failure printed naming it, recorded in its step's
 * {@code method_errors} and counted in {@code method_failed}, a NaN being the worst score; a method or policy built
 * against another h2beam, or a policy that decides nothing, fails the mode in one line naming it and its jar.
 */
class GatedMethodFailureTest {
  private static final String TASK = "ledger-1";
  private static final Namespace NS = Namespace.of("gtest", "oc", "gat", 1);

  @TempDir Path root;

  /** A method whose propose and evaluate are given; its name is {@code name}. */
  private record Scripted(String name, Step propose, Score evaluate) implements GatedMethod {
    @Override public String description() {
      return "a test method";
    }

    @Override public boolean needsChecks() {
      return false;
    }

    @Override public Proposal propose(List<TreeEntry> tree, List<Sample> samples, Models models,
        List<Rejection> rejected, Manifest manifest) throws Exception {
      return propose.propose();
    }

    @Override public OptionalDouble evaluate(GateTask task, Episode episode) throws Exception {
      return evaluate.evaluate();
    }

    interface Step {
      Proposal propose() throws Exception;
    }

    interface Score {
      OptionalDouble evaluate() throws Exception;
    }
  }

  /** A policy of version 1 named {@code name} that decides as {@code decide} does. */
  private static SelectionPolicy policy(String name, Decide decide) {
    return new SelectionPolicy() {
      @Override public String name() {
        return name;
      }

      @Override public String version() {
        return "1";
      }

      @Override public Decision decide(List<Double> candidate, List<Double> current, double minWinMargin) {
        return decide.decide(candidate, current);
      }
    };
  }

  private interface Decide {
    Decision decide(List<Double> candidate, List<Double> current);
  }

  private static final Scripted.Step ADDS_A_RULE = () -> Proposal.of(List.of(Mutation.update("guardrails.md",
      "- Check the totals twice.\n")), "one more check");

  @Test
  void aMethodFailingEveryCallIsPrintedNamedAndCountedPerStep() throws Exception {
    Scripted m = new Scripted("boom", () -> {
      throw new IllegalStateException("deliberate");
    }, () -> OptionalDouble.of(Double.NaN));
    String[] err = new String[1];
    JsonNode gate = gate(m, Policies.SCORE_COMPARISON, err);
    assertEquals(3, gate.path("method_failed").asInt(), gate.toString());
    JsonNode step1 = gate.at("/steps/0");
    assertEquals("none", step1.path("proposal").asText());
    assertEquals("the method failed: IllegalStateException: deliberate", step1.path("notes").asText());
    assertEquals(List.of("propose(g1) failed: IllegalStateException: deliberate",
        "evaluate(base1) returned NaN, not a finite score; counted as the worst score"),
        Json.MAPPER.convertValue(step1.path("method_errors"), List.class));
    assertTrue(err[0].contains("  [ledger-1] gated: method boom: propose(g1) failed: IllegalStateException:"
        + " deliberate\n"), err[0]);
    assertTrue(err[0].contains("  [ledger-1] gated: method boom: evaluate(base1) returned NaN"), err[0]);
    assertEquals(3, err[0].lines().filter(l -> l.contains("propose(")).count(), err[0]);
  }

  @Test
  void aMethodReturningNullIsAFailureNotACautiousStep() throws Exception {
    Scripted m = new Scripted("nothing", () -> null, () -> OptionalDouble.of(1));
    String[] err = new String[1];
    JsonNode gate = gate(m, Policies.SCORE_COMPARISON, err);
    assertEquals(3, gate.path("method_failed").asInt(), gate.toString());
    assertEquals("the method proposed nothing: propose(g1) returned null; return Proposal.none(reason) to propose"
        + " nothing", gate.at("/steps/0/notes").asText());
    assertTrue(err[0].contains("gated: method nothing: propose(g2) returned null"), err[0]);
  }

  /**
   * dogY #8, #9: an error a careless method throws (an assert) fails that call, as an exception does, not the whole
   * mode; an evaluate that returns null (not OptionalDouble.empty()) is a failure said and counted, not a silent "no
   * score" that rejects every candidate.
   */
  @Test
  void anAssertionErrorOrANullScoreIsTheMethodsFailureNotTheModes() throws Exception {
    Scripted m = new Scripted("careless", () -> {
      throw new AssertionError("careless assert");
    }, () -> null);
    String[] err = new String[1];
    JsonNode gate = gate(m, Policies.SCORE_COMPARISON, err);
    assertEquals(3, gate.path("method_failed").asInt(), gate.toString());
    assertEquals(List.of("propose(g1) failed: AssertionError: careless assert", "evaluate(base1) returned null;"
        + " return OptionalDouble.empty() when it cannot score an episode"),
        Json.MAPPER.convertValue(gate.at("/steps/0/method_errors"), List.class));
    assertTrue(err[0].contains("  [ledger-1] gated: method careless: propose(g1) failed: AssertionError"), err[0]);
  }

  /**
   * dogY #6: a method that returns with its thread's interrupt flag set (an InterruptedException caught and flagged
   * again) made h2beam's next wait on that thread fail the whole job with a trace naming no method; the flag is
   * cleared, the method named once, and the mode goes on as if nothing had happened.
   */
  @Test
  void aMethodThatLeavesItsThreadInterruptedIsNamedAndTheModeGoesOn() throws Exception {
    Scripted m = new Scripted("flagger", () -> {
      Thread.currentThread().interrupt();
      return ADDS_A_RULE.propose();
    }, () -> {
      Thread.currentThread().interrupt();
      return OptionalDouble.of(1);
    });
    String[] err = new String[1];
    JsonNode gate = gate(m, Policies.SCORE_COMPARISON, err);
    assertFalse(Thread.currentThread().isInterrupted());
    assertEquals(0, gate.path("method_failed").asInt(), gate.toString());
    assertEquals(3, gate.path("steps").size(), gate.toString());
    assertTrue(err[0].contains("  [ledger-1] gated: method flagger: evaluate(base1) returned with its thread's"
        + " interrupt flag set (an InterruptedException caught and flagged again?); h2beam cleared it"), err[0]);
    assertEquals(1, err[0].lines().count(), "said once: " + err[0]);
  }

  @Test
  void aMethodThatWorksHasNoErrorsAndPrintsNothing() throws Exception {
    String[] err = new String[1];
    JsonNode gate = gate(new Scripted("fine", ADDS_A_RULE, () -> OptionalDouble.of(1)), Policies.SCORE_COMPARISON,
        err);
    assertEquals(0, gate.path("method_failed").asInt(), gate.toString());
    for (JsonNode step : gate.path("steps")) assertFalse(step.has("method_errors"), step.toString());
    assertEquals("", err[0]);
  }

  @Test
  void aMethodBuiltAgainstAnotherH2beamOrJavaFailsTheModeInOneLine() {
    Scripted m = new Scripted("stale", () -> {
      throw new NoSuchMethodError("'dev.h2beam.transforms.gated.Proposal dev.h2beam.transforms.gated.Proposal.of("
          + "java.util.List, java.lang.String, double)'");
    }, () -> OptionalDouble.of(1));
    PluginCalls.BrokenPlugin e = assertThrows(PluginCalls.BrokenPlugin.class,
        () -> gate(m, Policies.SCORE_COMPARISON, new String[1]));
    assertTrue(e.getMessage().startsWith("gated method 'stale' (--method=stale, from "), e.getMessage());
    assertTrue(e.getMessage().contains(") failed in propose: built against another h2beam: rebuild it against this"
        + " version (NoSuchMethodError: 'dev.h2beam.transforms.gated.Proposal"), e.getMessage());
    assertFalse(e.getMessage().contains("\n"), e.getMessage());

    Scripted newer = new Scripted("newer", ADDS_A_RULE, () -> {
      throw new UnsupportedClassVersionError("plug/Helper has been compiled by a more recent version of the Java"
          + " Runtime (class file version 69.0)");
    });
    PluginCalls.BrokenPlugin v = assertThrows(PluginCalls.BrokenPlugin.class,
        () -> gate(newer, Policies.SCORE_COMPARISON, new String[1]));
    assertTrue(v.getMessage().contains(") failed in evaluate: compiled for a newer Java (UnsupportedClassVersionError:"
        + " plug/Helper has been compiled"), v.getMessage());
    assertTrue(v.getMessage().endsWith(", this JVM is Java " + Runtime.version().feature() + ": rebuild it with"
        + " --release " + Runtime.version().feature() + " (maven.compiler.release " + Runtime.version().feature()
        + ")"), v.getMessage());
  }

  @Test
  void aPolicyThatDecidesNothingIsNamedWithTheFlag() {
    SelectionPolicy silent = policy("silent", (candidate, current) -> null);
    PluginCalls.BrokenPlugin e = assertThrows(PluginCalls.BrokenPlugin.class,
        () -> gate(new Scripted("fine", ADDS_A_RULE, () -> OptionalDouble.of(1)), silent, new String[1]));
    assertTrue(e.getMessage().startsWith("selection policy 'silent' (--policy=silent, from "), e.getMessage());
    assertTrue(e.getMessage().endsWith(") returned no decision (null); a SelectionPolicy must return a Decision: fix"
        + " the policy, or choose another with --policy"), e.getMessage());
  }

  /**
   * A method's notes and failures are free text it wrote in h2beam's process, where it can read a held key: the key,
   * its base64 and its hex reach no file under the runs root, no record and no console line, each shown as
   * {@code [redacted key]}; a note cut at 400 characters leaves no piece of it either.
   */
  @Test
  void aKeyInAMethodsNotesOrFailuresReachesNoFile() throws Exception {
    String key = "sk-canary-E9x7";
    String b64 = Base64.getEncoder().encodeToString(key.getBytes(StandardCharsets.UTF_8));
    String hex = HexFormat.of().formatHex(key.getBytes(StandardCharsets.UTF_8));
    String notes = "found " + key + " (" + b64 + ", " + hex + ")";
    int[] calls = {0};
    Scripted m = new Scripted("leaky", () -> switch (++calls[0]) {
      case 1 -> Proposal.none("nothing to do; " + notes);
      case 2 -> Proposal.of(ADDS_A_RULE.propose().mutations(), "x".repeat(395) + key);
      default -> throw new IllegalStateException("cannot use " + notes);
    }, () -> {
      throw new IllegalArgumentException("no score for " + notes);
    });
    List<EnvKeys.Held> was = EnvKeys.use(Map.of("CANARY_API_KEY", key));
    try {
      String[] err = new String[1];
      JsonNode gate = gate(m, Policies.SCORE_COMPARISON, err);
      try (Stream<Path> walk = Files.walk(root.resolve("runs"))) {
        for (Path f : walk.filter(Files::isRegularFile).toList()) {
          String text = Files.readString(f, StandardCharsets.ISO_8859_1);
          for (String form : List.of(key, b64, hex)) assertFalse(text.contains(form), f + " holds the key");
        }
      }
      assertEquals("nothing to do; found [redacted key] ([redacted key], [redacted key])",
          gate.at("/steps/0/notes").asText(), gate.toString());
      assertEquals("x".repeat(395) + "[reda", gate.at("/steps/1/notes").asText(), gate.toString());
      assertTrue(gate.at("/steps/2/method_errors").toString().contains("cannot use found [redacted key]"),
          gate.toString());
      List<String> forms = List.of(key, b64, hex, "E9x7");
      for (String f : forms) {
        assertFalse(gate.toString().contains(f), "the gate's record holds " + f + ": " + gate);
        assertFalse(err[0].contains(f), "the console holds " + f + ": " + err[0]);
      }
    } finally {
      EnvKeys.restore(was);
    }
  }

  /**
   * A selection policy runs in h2beam's process too: a held key in its decision's reason reaches neither the gate's
   * record, nor the files under the runs root, nor the console, nor the next proposal's rejected history.
   */
  @Test
  void aKeyInAPolicysReasonReachesNoFile() throws Exception {
    String key = "sk-canary-P0l1";
    SelectionPolicy leaky = policy("leaky", (candidate, current) -> new Decision("reject", "leaky", "1",
        "rejected, see " + key, candidate, current));
    List<EnvKeys.Held> was = EnvKeys.use(Map.of("CANARY_API_KEY", key));
    try {
      String[] err = new String[1];
      JsonNode gate = gate(new Scripted("adds", ADDS_A_RULE, () -> OptionalDouble.of(0.5)), leaky, err);
      assertTrue(gate.toString().contains("rejected, see [redacted key]"), gate.toString());
      assertFalse(gate.toString().contains(key), gate.toString());
      assertFalse(err[0].contains(key), err[0]);
      try (Stream<Path> walk = Files.walk(root.resolve("runs"))) {
        for (Path f : walk.filter(Files::isRegularFile).toList()) {
          assertFalse(Files.readString(f, StandardCharsets.ISO_8859_1).contains(key), f + " holds the key");
        }
      }
    } finally {
      EnvKeys.restore(was);
    }
  }

  /** The gated mode's record of {@link #TASK} at k = 1 with {@code method} and {@code policy}; stderr in err[0]. */
  private JsonNode gate(GatedMethod method, SelectionPolicy policy, String[] err) throws Exception {
    GatedSessionCostTest.Bench bench = new GatedSessionCostTest.Bench(root);
    Path runs = root.resolve("runs");
    Proposer proposer = new Proposer((cwd, mission, system, label, timeout) -> SessionResult.reply("", 0),
        ChannelSpec.of("scripted", "model-1"), TaskScope.auditDir(runs, NS), null, 2, Limits.of("sessions", 1),
        Duration.ZERO);
    TaskScope s = new TaskScope(bench, TASK, 1, NS, runs, proposer, proposer, proposer, Limits.of("rollouts", 1), 1,
        null, Faults.NONE);
    Files.createDirectories(root.resolve("checks"));
    List<RunView> bases = List.of(Roller.roll(s, "base1", null));
    LinkedHashMap<String, String> base = new LinkedHashMap<>();
    base.put("systemprompt.md", "You reconcile ledgers.\n");
    base.put("guardrails.md", "- Check the totals.\n");
    PrintStream before = System.err;
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    System.setErr(new PrintStream(bytes, true, StandardCharsets.UTF_8));
    try {
      return Json.MAPPER.valueToTree(Gated.run(s, base, bases, method, policy, 0).toJson()).path("gate");
    } finally {
      System.setErr(before);
      err[0] = bytes.toString(StandardCharsets.UTF_8);
    }
  }
}
