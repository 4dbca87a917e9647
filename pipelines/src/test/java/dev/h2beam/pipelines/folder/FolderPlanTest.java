package dev.h2beam.pipelines.folder;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.h2beam.pipelines.UsageError;
import dev.h2beam.pipelines.sweep.Sweep;
import dev.h2beam.pipelines.sweep.SweepOptions;
import dev.h2beam.transforms.evidence.FileTrees;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Instant;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A folder sweep is refused before anything runs, with every problem named, and writes nothing into the folder. */
class FolderPlanTest {
  static final Path EXAMPLE = Paths.get("..", "examples", "folder-bench").toAbsolutePath().normalize();
  @TempDir Path tmp;

  UsageError refused(String... args) {
    SweepOptions o = PipelineOptionsFactory.fromArgs(args).as(SweepOptions.class);
    return assertThrows(UsageError.class, () -> Sweep.plan(o, Instant.EPOCH));
  }

  Path copy() throws Exception {
    Path root = tmp.resolve("bench");
    FileTrees.copy(EXAMPLE, root);
    return root;
  }

  @Test
  void withoutAConfigurationTheMissingRolesAreNamed() {
    UsageError e = refused("--bench=folder", "--benchRoot=" + EXAMPLE, "--runsRoot=" + tmp.resolve("runs"));
    assertTrue(e.getMessage().contains("roles.executor"), e.getMessage());
  }

  @Test
  void sessionRolesMissingFromTheConfigurationAreNamed() throws Exception {
    Path cfg = tmp.resolve("c.yaml");
    Files.writeString(cfg, "endpoints:\n  m: {base_url: \"http://127.0.0.1:9/v1\"}\n"
        + "roles:\n  executor: {endpoint: m, model: e}\n");
    UsageError e = refused("--bench=folder", "--benchRoot=" + EXAMPLE, "--runsRoot=" + tmp.resolve("runs"),
        "--config=" + cfg);
    assertTrue(e.getMessage().contains("[improver, selector, reflector]"), e.getMessage());
  }

  /** A sweep of the benchmark at {@code root}, every role configured, refused. */
  UsageError refusedWithEveryRole(Path root) throws Exception {
    Path cfg = tmp.resolve("c.yaml");
    Files.writeString(cfg, "endpoints:\n  m: {base_url: \"http://127.0.0.1:9/v1\"}\nroles:\n"
        + "  executor: {endpoint: m, model: e}\n  improver: {endpoint: m, model: e}\n"
        + "  selector: {endpoint: m, model: e}\n  reflector: {endpoint: m, model: e}\n");
    return refused("--bench=folder", "--benchRoot=" + root, "--runsRoot=" + tmp.resolve("runs"), "--config=" + cfg);
  }

  @Test
  void anInvalidBaseHarnessIsRefusedNamingEachFile() throws Exception {
    Path root = copy();
    Files.createDirectories(root.resolve("base/notes"));
    Files.writeString(root.resolve("base/notes/todo.txt"), "later\n");
    Files.createDirectories(root.resolve("base/skills/totals"));
    Files.writeString(root.resolve("base/skills/totals/SKILL.md"), "---\nname: other\n---\nno description\n");
    UsageError e = refusedWithEveryRole(root);
    assertTrue(e.getMessage().contains("notes/todo.txt: not on the opencode surface"), e.getMessage());
    assertTrue(e.getMessage().contains("totals"), e.getMessage());
    assertFalse(Files.exists(root.resolve("runs")), "nothing is written into the benchmark folder");
  }

  /**
   * A task's problem does not hide the base harness's: a source over the limit and a link and a file off the surface
   * in the base harness are all named by the first refusal, as check names them (a user fixed the task, only to be
   * told of the base harness on the next run).
   */
  @Test
  void aTaskProblemDoesNotHideTheBaseHarnessesProblems() throws Exception {
    Path root = copy();
    Files.writeString(root.resolve("tasks/ledgers/march/source/big.csv"), "x".repeat(2_000_000));
    Files.createDirectories(root.resolve("base/notes"));
    Files.writeString(root.resolve("base/notes/todo.txt"), "later\n");
    Files.createSymbolicLink(root.resolve("base/skills_link"), root.resolve("base"));
    UsageError e = refusedWithEveryRole(root);
    assertTrue(e.getMessage().contains("big.csv"), e.getMessage());
    assertTrue(e.getMessage().contains("notes/todo.txt: not on the opencode surface"), e.getMessage());
    assertTrue(e.getMessage().contains("skills_link"), e.getMessage());
    assertFalse(Files.exists(tmp.resolve("runs")), "nothing is written");
  }

  /**
   * Sub-agents in a folder benchmark's base harness are refused, as in harness2, unless its bench.json allows them;
   * the refusal says so, since the user (not an improver) can change it.
   */
  @Test
  void subAgentsAreRefusedSayingHowTheBenchmarkAllowsThem() throws Exception {
    Path root = copy();
    Files.createDirectories(root.resolve("base/sub_agents/checker"));
    Files.writeString(root.resolve("base/sub_agents/checker/AGENT.md"), "---\ndescription: checks the total\n"
        + "mode: subagent\n---\nRe-add the amounts.\n");
    UsageError e = refusedWithEveryRole(root);
    assertTrue(e.getMessage().contains("sub_agents are not available on this deployment: ['checker']; a folder"
        + " benchmark allows them with \"allow_subagents\": true in bench.json"), e.getMessage());

    Path bench = root.resolve("bench.json");
    Files.writeString(bench, Files.readString(bench).replaceFirst("\\{", "{\"allow_subagents\": true, "));
    dev.h2beam.adapters.config.RunConfig cfg = dev.h2beam.adapters.config.RunConfig.parse("endpoints:\n  m:"
        + " {base_url: \"http://127.0.0.1:9/v1\"}\nroles:\n  executor: {endpoint: m, model: e}\n", "c.yaml");
    dev.h2beam.adapters.folder.FolderBenchmark b = dev.h2beam.adapters.folder.FolderBenchmark.open(root,
        tmp.resolve("exec"), "all", cfg, java.util.Map.of());
    assertTrue(b.spec().allowSubagents());
    assertEquals(java.util.List.of(), dev.h2beam.pipelines.sweep.BaseHarness.problems(b));
  }

  @Test
  void aLiteralKeyInTheConfigurationIsRefusedWithoutEchoingIt() throws Exception {
    Path cfg = tmp.resolve("c.yaml");
    String key = "sk-" + "abcdefghijklmnopqrstuvwxyz123456";
    Files.writeString(cfg, "endpoints:\n  m: {base_url: \"http://127.0.0.1:9/v1\", api_key: \"" + key + "\"}\n"
        + "roles:\n  executor: {endpoint: m, model: e}\n");
    UsageError e = refused("--bench=folder", "--benchRoot=" + EXAMPLE, "--runsRoot=" + tmp.resolve("runs"),
        "--config=" + cfg);
    assertTrue(e.getMessage().contains("api_key") && e.getMessage().contains("environment variable"), e.getMessage());
    assertFalse(e.getMessage().contains(key), e.getMessage());
  }

  /**
   * A key variable the sweep's roles read and the environment lacks fails every task at its first call: the sweep is
   * refused before anything runs, naming each variable and its endpoint (never a value), and the judge's is not asked.
   */
  @Test
  void aKeyVariableTheSweepNeedsAndTheEnvironmentLacksIsRefusedNamingIt() throws Exception {
    assertTrue(System.getenv(FolderSweepTest.KEY_VAR) != null, "the pom sets " + FolderSweepTest.KEY_VAR);
    Path cfg = tmp.resolve("c.yaml");
    Files.writeString(cfg, "endpoints:\n  set: {base_url: \"http://127.0.0.1:9/v1\", api_key_env: "
        + FolderSweepTest.KEY_VAR + "}\n  unset: {base_url: \"http://127.0.0.1:9/v1\", api_key_env:"
        + " H2BEAM_NO_SUCH_KEY_VAR}\n  judging: {base_url: \"http://127.0.0.1:9/v1\", api_key_env:"
        + " H2BEAM_NO_JUDGE_KEY_VAR}\nroles:\n  executor: {endpoint: set, model: e}\n"
        + "  improver: {endpoint: unset, model: e}\n  selector: {endpoint: unset, model: e}\n"
        + "  reflector: {endpoint: set, model: e}\n  judge: {endpoint: judging, model: e}\n");
    Path runs = tmp.resolve("runs");
    UsageError e = refused("--bench=folder", "--benchRoot=" + EXAMPLE, "--runsRoot=" + runs, "--config=" + cfg);
    assertTrue(e.getMessage().startsWith("--config=" + cfg + ": environment variable H2BEAM_NO_SUCH_KEY_VAR"
        + " (api_key_env of endpoint unset) is not set; export it"), e.getMessage());
    assertFalse(e.getMessage().contains("JUDGE"), "the judge's key is the judge's business: " + e.getMessage());
    assertFalse(Files.exists(runs.resolve("_sweeps")), "no sweep record is written");
  }
}
