package dev.h2beam.adapters.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The run configuration file: what it accepts, its defaults, and how it refuses what it must. */
class RunConfigTest {
  private static final String GOOD = """
      endpoints:
        local: {base_url: "http://127.0.0.1:8000/v1/", api_key_env: "OPENAI_API_KEY", max_concurrency: 3,
                timeout_seconds: 90, max_attempts: 5, price_per_mtok: {input: 0.5, output: 1.5}}
        free: {base_url: "https://models.example.org/v1"}
      roles:
        executor:  {endpoint: local, model: "qwen2.5-7b-instruct", temperature: 0.0, max_tokens: 4096}
        improver:  {endpoint: free, model: "big-model"}
        judge:     {endpoint: local, model: "judge-model"}
      """;

  private static final String GOOD_JSON = """
      {"roles": {"judge": {"model": "judge-model", "endpoint": "local"},
                 "improver": {"endpoint": "free", "model": "big-model"},
                 "executor": {"endpoint": "local", "model": "qwen2.5-7b-instruct", "temperature": 0.0,
                              "max_tokens": 4096}},
       "endpoints": {"free": {"base_url": "https://models.example.org/v1"},
                     "local": {"base_url": "http://127.0.0.1:8000/v1", "api_key_env": "OPENAI_API_KEY",
                               "max_concurrency": 3, "timeout_seconds": 90, "max_attempts": 5,
                               "price_per_mtok": {"input": 0.5, "output": 1.5}}}}
      """;

  private static ConfigError refused(String text) {
    return assertThrows(ConfigError.class, () -> RunConfig.parse(text, "cfg.yaml"));
  }

  @Test
  void aGoodFileResolvesEveryRoleToItsEndpointAndModel() {
    RunConfig c = RunConfig.parse(GOOD, "cfg.yaml");
    ResolvedRole executor = c.role("executor").orElseThrow();
    assertEquals("qwen2.5-7b-instruct", executor.model());
    assertEquals(0.0, executor.temperature());
    assertEquals(4096, executor.maxTokens());
    Endpoint local = executor.endpoint();
    assertEquals(new Endpoint("local", "http://127.0.0.1:8000/v1", "OPENAI_API_KEY", 3, 90, 5, 0.5, 1.5), local);
    ResolvedRole improver = c.role("improver").orElseThrow();
    assertNull(improver.temperature());
    assertNull(improver.maxTokens());
    assertTrue(c.role("selector").isEmpty());
    assertEquals(List.of("free", "local"), List.copyOf(c.endpoints().keySet()));
  }

  @Test
  void endpointDefaultsAreNoKeyEightInFlightTenMinutesFourAttemptsAndFreeTokens() {
    Endpoint free = RunConfig.parse(GOOD, "cfg.yaml").endpoints().get("free");
    assertEquals(new Endpoint("free", "https://models.example.org/v1", "", 8, 600, 4, 0.0, 0.0), free);
  }

  @Test
  void identityNamesEachConfiguredRoleByBaseUrlAndModelInRoleOrder() {
    Map<String, String> id = RunConfig.parse(GOOD, "cfg.yaml").identity();
    assertEquals(List.of("executor", "improver", "judge"), List.copyOf(id.keySet()));
    assertEquals("http://127.0.0.1:8000/v1#qwen2.5-7b-instruct", id.get("executor"));
    assertEquals("https://models.example.org/v1#big-model", id.get("improver"));
  }

  @Test
  void keyVariablesAreThoseOfTheEndpointsRolesUse() {
    assertEquals(Set.of("OPENAI_API_KEY"), RunConfig.parse(GOOD, "cfg.yaml").keyVariables());
  }

  @Test
  void jsonAndYamlOfTheSameConfigurationAreEqualValues() {
    RunConfig yaml = RunConfig.parse(GOOD, "cfg.yaml");
    RunConfig json = RunConfig.parse(GOOD_JSON, "cfg.json");
    assertEquals(yaml, json);
    assertEquals(yaml.hashCode(), json.hashCode());
    assertNotEquals(yaml, RunConfig.parse(GOOD.replace("big-model", "other-model"), "cfg.yaml"));
  }

  @Test
  void aConfigurationSurvivesJavaSerialization() throws Exception {
    RunConfig c = RunConfig.parse(GOOD, "cfg.yaml");
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
      out.writeObject(c);
    }
    try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray()))) {
      assertEquals(c, in.readObject());
    }
  }

  @Test
  void itsViewsCannotBeModified() {
    RunConfig c = RunConfig.parse(GOOD, "cfg.yaml");
    assertThrows(UnsupportedOperationException.class, () -> c.endpoints().clear());
    assertThrows(UnsupportedOperationException.class, () -> c.identity().clear());
    assertThrows(UnsupportedOperationException.class, () -> c.keyVariables().clear());
  }

  @Test
  void theEmptyConfigurationHasNoRolesAndNoEndpoints() {
    assertTrue(RunConfig.empty().isEmpty());
    assertTrue(RunConfig.empty().identity().isEmpty());
    assertFalse(RunConfig.parse(GOOD, "cfg.yaml").isEmpty());
  }

  @Test
  void readNamesTheFileInItsErrors(@TempDir Path tmp) throws Exception {
    Path file = tmp.resolve("run.yaml");
    Files.writeString(file, GOOD.replace("max_attempts: 5", "max_attempts: \"x\""));
    ConfigError e = assertThrows(ConfigError.class, () -> RunConfig.read(file));
    assertEquals(file + ": endpoints.local.max_attempts: must be a whole number >= 1, got \"x\"; write it without"
        + " quotes, e.g. 4", e.getMessage());
    Files.writeString(file, GOOD);
    assertEquals(RunConfig.parse(GOOD, "x"), RunConfig.read(file));
  }

  @Test
  void aMissingFileIsNamedWithWhatToCheck(@TempDir Path tmp) {
    ConfigError e = assertThrows(ConfigError.class, () -> RunConfig.read(tmp.resolve("nope.yaml")));
    assertTrue(e.getMessage().startsWith(tmp.resolve("nope.yaml") + ": cannot be read"), e.getMessage());
    assertTrue(e.getMessage().contains("--config"), e.getMessage());
  }

  @Test
  void everyProblemIsCollectedWithItsKeyPathInOneError() {
    ConfigError e = refused("""
        endpoints:
          a: {base_url: "ftp://host/v1", max_concurrency: 0, timeout_seconds: 1.5, max_attempts: "x",
              api_key_env: "1BAD", price_per_mtok: {input: -1, output: "free"}}
          b: {max_attempts: 2}
        roles:
          executor: {endpoint: nowhere, model: "m"}
          improver: {endpoint: a, model: "  "}
          selector: {model: "m", temperature: 3}
          selectorr: {endpoint: a, model: "m"}
          judge: "a-model"
          reflector: {endpoint: a, model: m, max_tokens: 0}
        """);
    List<String> expected = List.of(
        "cfg.yaml: endpoints.a.base_url: must be an absolute http(s) URL",
        "cfg.yaml: endpoints.a.api_key_env: must be the name of an environment variable",
        "cfg.yaml: endpoints.a.max_concurrency: must be a whole number >= 1, got 0",
        "cfg.yaml: endpoints.a.timeout_seconds: must be a whole number >= 1, got 1.5",
        "cfg.yaml: endpoints.a.max_attempts: must be a whole number >= 1, got \"x\"",
        "cfg.yaml: endpoints.a.price_per_mtok.input: must be a number >= 0",
        "cfg.yaml: endpoints.a.price_per_mtok.output: must be a number >= 0",
        "cfg.yaml: endpoints.b.base_url: missing",
        "cfg.yaml: roles.selectorr: unknown role; known roles: executor, improver, selector, reflector, judge",
        "cfg.yaml: roles.judge: must be a mapping with endpoint and model, got a string",
        "cfg.yaml: roles.executor.endpoint: no endpoint named \"nowhere\"; defined endpoints: [a, b]",
        "cfg.yaml: roles.improver.model: must be a non-blank string",
        "cfg.yaml: roles.selector.endpoint: missing",
        "cfg.yaml: roles.selector.temperature: must be a number from 0 to 2",
        "cfg.yaml: roles.reflector.max_tokens: must be a whole number >= 1, got 0");
    assertEquals(expected.size(), e.problems().size(), e.getMessage());
    for (int i = 0; i < expected.size(); i++) {
      assertTrue(e.problems().get(i).startsWith(expected.get(i)), e.problems().get(i) + " <> " + expected.get(i));
    }
    assertTrue(e.getMessage().startsWith(expected.size() + " problems in cfg.yaml; fix each and run again:\n"));
    assertEquals(expected.size() + 1, e.getMessage().split("\n").length);
  }

  @Test
  void unknownKeysAreRefusedAtEveryLevelNamingTheKnownOnes() {
    ConfigError e = refused("""
        endpoint: {}
        endpoints:
          local: {base_url: "http://h/v1", max_concurency: 2, price_per_mtok: {inputs: 1}}
        roles:
          improver: {endpoint: local, model: m, temprature: 0.1}
        """);
    assertEquals(List.of(
        "cfg.yaml: endpoint: unknown key; known keys here: endpoints, roles, grants; check the spelling",
        "cfg.yaml: endpoints.local.max_concurency: unknown key; known keys here: base_url, api_key_env,"
            + " max_concurrency, timeout_seconds, max_attempts, price_per_mtok, requests_per_minute, tokens_per_minute; check the spelling",
        "cfg.yaml: endpoints.local.price_per_mtok.inputs: unknown key; known keys here: input, output; check the"
            + " spelling",
        "cfg.yaml: roles.improver.temprature: unknown key; known keys here: endpoint, model, temperature,"
            + " max_tokens; check the spelling"), e.problems());
  }

  @Test
  void aLiteralKeyIsRefusedWhereverItIsAndNeverEchoed() {
    String secret = "sk-proj-abcdefghijklmnopqrstuvwxyz0123456789";
    ConfigError e = refused("""
        endpoints:
          local: {base_url: "http://h/v1", api_key: "%s", extra: {Token: "t0k3n-value-123"}}
        roles:
          improver: {endpoint: local, model: m, apiKey: "hunter2hunter2"}
        """.formatted(secret));
    assertEquals(List.of(
        "cfg.yaml: endpoints.local.api_key: a literal key is not allowed in the file; " + ConfigReader.KEY_ADVICE,
        "cfg.yaml: endpoints.local.extra.Token: a literal key is not allowed in the file; " + ConfigReader.KEY_ADVICE,
        "cfg.yaml: roles.improver.apiKey: a literal key is not allowed in the file; " + ConfigReader.KEY_ADVICE,
        "cfg.yaml: endpoints.local.extra: unknown key; known keys here: base_url, api_key_env, max_concurrency,"
            + " timeout_seconds, max_attempts, price_per_mtok, requests_per_minute, tokens_per_minute; check the spelling"), e.problems());
    for (String value : List.of(secret, "t0k3n-value-123", "hunter2hunter2")) {
      assertFalse(e.getMessage().contains(value), value);
    }
  }

  @Test
  void valuesShapedLikeProviderKeysAreRefusedUnderAnyKeyAndNeverEchoed() {
    List<String> keys = List.of(
        "sk-ant-api03-abcdefghijklmnopqrstuvwxyz012345", "AKIAABCDEFGHIJKLMNOP",
        "ghp_abcdefghijklmnopqrstuvwxyz0123456789", "xoxb-1234567890-abcdefghij", "AIzaSyA-abcdefghijklmnopqrstuvwxyz12345",
        "-----BEGIN RSA PRIVATE KEY-----");
    for (String key : keys) {
      ConfigError e = refused("""
          endpoints:
            local: {base_url: "http://h/v1", api_key_env: "%s"}
          roles:
            improver: {endpoint: local, model: "%s"}
          """.formatted(key, key));
      assertEquals(List.of(
          "cfg.yaml: endpoints.local.api_key_env: holds what looks like a provider key (not shown); "
              + ConfigReader.KEY_ADVICE,
          "cfg.yaml: roles.improver.model: holds what looks like a provider key (not shown); "
              + ConfigReader.KEY_ADVICE), e.problems(), key);
      assertFalse(e.getMessage().contains(key), key);
    }
  }

  @Test
  void aPasswordInTheBaseUrlIsRefusedWithoutQuotingIt() {
    ConfigError e = refused("""
        endpoints: {local: {base_url: "http://me:pa55word@h/v1"}}
        roles: {improver: {endpoint: local, model: m}}
        """);
    assertEquals(List.of("cfg.yaml: endpoints.local.base_url: must not carry a user or password (user:password@host); "
        + ConfigReader.KEY_ADVICE), e.problems());
    assertFalse(e.getMessage().contains("pa55word"));
  }

  @Test
  void aKeyVariableThatIsNotANameIsNotEchoedInCaseItIsTheKey() {
    ConfigError e = refused("""
        endpoints: {local: {base_url: "http://h/v1", api_key_env: "my secret value"}}
        roles: {improver: {endpoint: local, model: m}}
        """);
    assertFalse(e.getMessage().contains("my secret value"), e.getMessage());
    assertTrue(e.getMessage().contains("e.g. OPENAI_API_KEY"), e.getMessage());
  }

  @Test
  void aQueryInTheBaseUrlIsRefusedWithoutQuotingIt() {
    ConfigError e = refused("""
        endpoints: {local: {base_url: "http://h:8000/v1?api-key=tok3nABCdef99#x"}}
        roles: {improver: {endpoint: local, model: m}}
        """);
    assertFalse(e.getMessage().contains("tok3nABCdef99"), e.getMessage());
    assertTrue(e.getMessage().contains("got \"http://h:8000/v1\" followed by a query or fragment (not shown: it may"
        + " hold a key)"), e.getMessage());
  }

  /** A key's value given where its variable's name belongs is a name in form, but never quoted back, nor sought. */
  @Test
  void aKeyVariableThatHoldsAHeldKeysValueIsNotEchoedAndTheVariableIsNamed() {
    List<EnvKeys.Held> was = EnvKeys.use(Map.of("VLLM_API_KEY", "tok3nABCdef99"));
    try {
      ConfigError e = refused("""
          endpoints: {local: {base_url: "http://h/v1", api_key_env: "tok3nABCdef99"}}
          roles: {improver: {endpoint: local, model: m}}
          """);
      assertEquals(List.of("cfg.yaml: endpoints.local.api_key_env: holds the value of the environment variable"
          + " VLLM_API_KEY, not a variable's name; write api_key_env: VLLM_API_KEY"), e.problems());
    } finally {
      EnvKeys.restore(was);
    }
  }

  /** A held key's value where a name is quoted back (an endpoint a role names) is named by its variable only. */
  @Test
  void aHeldKeysValueQuotedBackIsNamedByItsVariable() {
    List<EnvKeys.Held> was = EnvKeys.use(Map.of("VLLM_API_KEY", "tok3nABCdef99"));
    try {
      ConfigError e = refused("""
          endpoints: {local: {base_url: "http://h/v1"}}
          roles: {improver: {endpoint: tok3nABCdef99, model: m}}
          """);
      assertEquals(List.of("cfg.yaml: roles.improver.endpoint: no endpoint named the value of the environment variable"
          + " VLLM_API_KEY (not shown); defined endpoints: [local]"), e.problems());
    } finally {
      EnvKeys.restore(was);
    }
  }

  @Test
  void aSyntaxErrorNamesTheLineWithoutQuotingTheSource() {
    ConfigError e = refused("""
        endpoints:
          local: {base_url: "http://h/v1"
        roles: sk-abcdefghijklmnopqrstuvwxyz0123456789: [
        """);
    assertTrue(e.getMessage().startsWith("cfg.yaml: not valid YAML at line "), e.getMessage());
    assertFalse(e.getMessage().contains("abcdefghijklmnopqrstuvwxyz"), e.getMessage());
    assertEquals(1, e.getMessage().split("\n").length);
  }

  @Test
  void duplicateKeysAreRefused() {
    ConfigError e = refused("""
        {"endpoints": {"a": {"base_url": "http://h/v1"}}, "endpoints": {}, "roles": {}}
        """);
    assertTrue(e.getMessage().startsWith("cfg.yaml: not valid JSON at line 1"), e.getMessage());
    assertTrue(e.getMessage().contains("Duplicate field 'endpoints'"), e.getMessage());
  }

  @Test
  void anEmptyFileOrOneWithoutRolesSaysWhatToAdd() {
    assertTrue(refused("# nothing\n").getMessage().startsWith("cfg.yaml: the file is empty"));
    ConfigError e = refused("endpoints: {a: {base_url: \"http://h/v1\"}}\n");
    assertEquals(1, e.problems().size());
    assertTrue(e.getMessage().startsWith("cfg.yaml: roles: missing; say which endpoint and model serve each role"),
        e.getMessage());
    assertTrue(refused("- a\n- b\n").getMessage().contains("(top level): must be a mapping"));
  }

  @Test
  void endpointsMayUseHttpsAndKeepTheirPath() {
    RunConfig c = RunConfig.parse("""
        endpoints: {e: {base_url: "https://api.example.com/openai/v1//"}}
        roles: {reflector: {endpoint: e, model: m}}
        """, "cfg.yaml");
    assertEquals("https://api.example.com/openai/v1", c.role("reflector").orElseThrow().endpoint().baseUrl());
  }

  @Test
  void aNonUtf8FileIsRefusedAsSuch(@TempDir Path tmp) throws Exception {
    Path file = tmp.resolve("latin1.yaml");
    Files.write(file, "roles: {improver: {model: \"caf\u00e9\"}}".getBytes(StandardCharsets.ISO_8859_1));
    assertEquals(file + ": is not UTF-8 text; save the configuration as UTF-8",
        assertThrows(ConfigError.class, () -> RunConfig.read(file)).getMessage());
  }

  private static final String GRANTS = """
      grants:
        - {benchmark: signed_sums, endpoint: local, model: "judge-model", references: "grading/rubric.json"}
        - {benchmark: jb, endpoint: free, model: "big-model", references: "RUBRICS.json"}
      """;

  @Test
  void grantsAreReadInFileOrderAndStayOutOfTheRunIdentity() throws Exception {
    RunConfig plain = RunConfig.parse(GOOD, "cfg.yaml");
    RunConfig granted = RunConfig.parse(GOOD + GRANTS, "cfg.yaml");
    ReferenceGrant rubric = new ReferenceGrant("signed_sums", "local", "judge-model", "grading/rubric.json");
    assertEquals(List.of(rubric, new ReferenceGrant("jb", "free", "big-model", "RUBRICS.json")), granted.grants());
    assertEquals(rubric, granted.grant("signed_sums").orElseThrow());
    assertTrue(granted.grant("other").isEmpty());
    assertTrue(plain.grants().isEmpty());
    // a grant permits egress; it does not change what a run measures
    assertEquals(plain.identity(), granted.identity());
    assertNotEquals(plain, granted);
    assertEquals(granted.grants(), granted.shareAmong(2, RunConfig.SWEEP_ROLES).grants());
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
      out.writeObject(granted);
    }
    try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray()))) {
      assertEquals(granted, in.readObject());
    }
    assertThrows(UnsupportedOperationException.class, () -> granted.grants().clear());
  }

  @Test
  void aGrantPrintsAsTheEntryThatParsesBackToIt() {
    ReferenceGrant g = new ReferenceGrant("signed_sums", "local", "org/judge:7b \"q\"", "grading/rubric.json");
    RunConfig c = RunConfig.parse(GOOD + "grants: [" + g.entry() + "]\n", "cfg.yaml");
    assertEquals(List.of(g), c.grants());
    assertEquals(List.of("endpoint", "model"),
        g.differences(new ReferenceGrant("signed_sums", "other", "m", "grading/rubric.json")));
  }

  @Test
  void everyGrantProblemIsNamedWithItsPath() {
    assertEquals(List.of("cfg.yaml: grants: must be a list of grants, got a mapping; e.g. grants: [{benchmark:"
        + " signed_sums, endpoint: local, model: \"judge-model\", references: \"grading/rubric.json\"}]"),
        refused(GOOD + "grants: {signed_sums: local}\n").problems());
    assertEquals(List.of(
        "cfg.yaml: grants[0]: must be a mapping with benchmark, endpoint, model, references, got a string; e.g."
            + " grants: [{benchmark: signed_sums, endpoint: local, model: \"judge-model\", references:"
            + " \"grading/rubric.json\"}]",
        "cfg.yaml: grants[1].modle: unknown key; known keys here: benchmark, endpoint, model, references; check the"
            + " spelling",
        "cfg.yaml: grants[1].model: missing; name the pinned judge model, exactly as roles.judge.model names it",
        "cfg.yaml: grants[2].endpoint: no endpoint named \"remote\"; defined endpoints: [local, free]",
        "cfg.yaml: grants[2].references: must be a non-blank string, got \"\"; name what the judge sends, e.g."
            + " \"grading/rubric.json\" for the rubric judge",
        "cfg.yaml: grants[4].benchmark: benchmark \"a\" already has a grant (grants[3]); a configuration has one"
            + " judge, so keep the one that names its endpoint and model"),
        refused(GOOD + """
            grants:
              - signed_sums
              - {benchmark: a, endpoint: local, modle: m, references: r}
              - {benchmark: b, endpoint: remote, model: m, references: ""}
              - {benchmark: a, endpoint: local, model: m, references: r}
              - {benchmark: a, endpoint: free, model: m2, references: r}
            """).problems());
  }
}
