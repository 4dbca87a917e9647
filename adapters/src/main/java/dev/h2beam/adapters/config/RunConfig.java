package dev.h2beam.adapters.config;

import java.io.IOException;
import java.io.Serializable;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The run configuration file ({@code --config=FILE}, YAML or JSON): named endpoints, which endpoint and model serve
 * each role, and the judge's reference egress grants. Immutable and serialisable, so a sweep can ship it to its
 * workers; it never holds a key value.
 *
 * <pre>
 * endpoints:
 *   local: {base_url: "http://127.0.0.1:8000/v1", api_key_env: "OPENAI_API_KEY", max_concurrency: 8,
 *           timeout_seconds: 600, max_attempts: 4, price_per_mtok: {input: 0.0, output: 0.0}}
 * roles:
 *   executor:  {endpoint: local, model: "qwen2.5-7b-instruct", temperature: 0.0, max_tokens: 4096}
 *   improver:  {endpoint: local, model: "qwen2.5-7b-instruct"}
 *   judge:     {endpoint: local, model: "judge-model"}
 * grants:
 *   - {benchmark: signed_sums, endpoint: local, model: "judge-model", references: "grading/rubric.json"}
 * </pre>
 *
 * <p>Only {@code base_url} and each role's {@code endpoint} and {@code model} are required; the defaults are no key,
 * 8 calls in flight, 600 s per call, 4 attempts and free tokens. Two configurations are equal when they resolve to
 * the same endpoints, roles and grants, whatever the file's layout.
 *
 * <p>{@code grants:} (optional, a list) lets a judge send a benchmark's grading references to a model
 * ({@link ReferenceGrant}). Each grant names all of {@code benchmark} (as its namespaces name it), {@code endpoint}
 * (one of {@code endpoints:}), {@code model} (the pinned judge model, exactly as {@code roles.judge.model}) and
 * {@code references} (what the judge sends: {@code grading/rubric.json} for the rubric judge); at most one grant per
 * benchmark. {@code h2beam judge} refuses, before anything is sent, a judge that sends references without a grant that
 * matches it on every field, and a grant for a benchmark it judges whose judge sends none. Grants are not part of the
 * run {@link #identity()}: they permit egress, they do not change what is measured.
 */
public final class RunConfig implements Serializable {
  private static final long serialVersionUID = 1L;

  /** The roles a configuration may name. */
  public static final List<String> ROLES = List.of("executor", "improver", "selector", "reflector", "judge");
  /** The roles a sweep calls (all but the judge, which scores later, in its own command). */
  public static final List<String> SWEEP_ROLES = List.of("executor", "improver", "selector", "reflector");

  private static final RunConfig EMPTY = new RunConfig(Map.of(), Map.of(), List.of());

  /** By endpoint name, sorted. */
  private final Map<String, Endpoint> endpoints;
  /** By role, in {@link #ROLES} order. */
  private final Map<String, ResolvedRole> roles;
  /** In file order; at most one per benchmark. */
  private final List<ReferenceGrant> grants;

  RunConfig(Map<String, Endpoint> endpoints, Map<String, ResolvedRole> roles, List<ReferenceGrant> grants) {
    this.endpoints = Collections.unmodifiableMap(new TreeMap<>(endpoints));
    Map<String, ResolvedRole> ordered = new LinkedHashMap<>();
    for (String role : ROLES) if (roles.containsKey(role)) ordered.put(role, roles.get(role));
    if (ordered.size() != roles.size()) throw new IllegalArgumentException("roles must be among " + ROLES);
    this.roles = Collections.unmodifiableMap(ordered);
    this.grants = List.copyOf(grants);
  }

  /** The configuration of a run given no file: no endpoints, no roles. */
  public static RunConfig empty() {
    return EMPTY;
  }

  public boolean isEmpty() {
    return endpoints.isEmpty() && roles.isEmpty() && grants.isEmpty();
  }

  /**
   * The file a {@code --config} flag names (relative to the working folder), or the empty configuration when the
   * flag is unset or blank; a file that cannot be used is refused naming the flag.
   *
   * @throws IllegalArgumentException {@code --config=FILE: } and why
   */
  public static RunConfig ofFlag(String file) {
    if (file == null || file.isBlank()) return empty();
    try {
      return read(java.nio.file.Paths.get(file).toAbsolutePath().normalize());
    } catch (ConfigError e) {
      throw new IllegalArgumentException("--config=" + file + ": " + e.getMessage());
    }
  }

  /** Reads and validates a file; every error names the file and key and says what to do. */
  public static RunConfig read(Path file) throws ConfigError {
    String text;
    try {
      text = StandardCharsets.UTF_8.newDecoder().decode(ByteBuffer.wrap(Files.readAllBytes(file))).toString();
    } catch (CharacterCodingException e) {
      throw new ConfigError(file + ": is not UTF-8 text; save the configuration as UTF-8");
    } catch (IOException e) {
      throw new ConfigError(file + ": cannot be read (" + e.getClass().getSimpleName() + ": " + e.getMessage()
          + "); check the path given to --config");
    }
    return parse(text, file.toString());
  }

  /** Parses text (YAML, of which JSON is a subset); {@code source} names it in errors. */
  public static RunConfig parse(String text, String source) throws ConfigError {
    return ConfigReader.parse(text, source);
  }

  /**
   * The configuration one of {@code workers} workers of a job calling {@code roles} runs with: the limits of every
   * endpoint those roles call divided among the workers ({@link Endpoint#share}), so that the job as a whole keeps
   * each limit however many workers run it. An endpoint no role of the job calls is left whole: the judge's endpoint
   * in a sweep's file is not the sweep's to divide, nor refused for being too small to divide among its workers.
   *
   * @throws IllegalArgumentException naming the endpoint and limit too small to divide
   */
  public RunConfig shareAmong(int workers, Collection<String> roles) {
    if (workers == 1) return this;
    Set<String> called = new TreeSet<>();
    for (String role : roles) {
      ResolvedRole r = this.roles.get(role);
      if (r != null) called.add(r.endpoint().name());
    }
    Map<String, Endpoint> shared = new TreeMap<>();
    endpoints.forEach((name, e) -> shared.put(name, called.contains(name) ? e.share(workers) : e));
    Map<String, ResolvedRole> sharedRoles = new LinkedHashMap<>();
    this.roles.forEach((role, r) -> sharedRoles.put(role, new ResolvedRole(r.role(),
        shared.getOrDefault(r.endpoint().name(), r.endpoint()), r.model(), r.temperature(), r.maxTokens())));
    return new RunConfig(shared, sharedRoles, grants);
  }

  /** The role with its endpoint, or empty when the file does not configure it. */
  public Optional<ResolvedRole> role(String name) {
    return Optional.ofNullable(roles.get(name));
  }

  /** The reference egress grants, in file order; empty when the file has none. */
  public List<ReferenceGrant> grants() {
    return grants;
  }

  /** The grant naming {@code benchmark}, or empty. */
  public Optional<ReferenceGrant> grant(String benchmark) {
    return grants.stream().filter(g -> g.benchmark().equals(benchmark)).findFirst();
  }

  /** Every endpoint the file defines, by name in sorted order (including any no role uses). */
  public Map<String, Endpoint> endpoints() {
    return endpoints;
  }

  /** role name → {@code <base_url>#<model>} for every configured role, in {@link #ROLES} order; for config.json. */
  public Map<String, String> identity() {
    Map<String, String> out = new LinkedHashMap<>();
    roles.forEach((role, r) -> out.put(role, r.identity()));
    return Collections.unmodifiableMap(out);
  }

  /**
   * role name → its {@link ResolvedRole#settings() sampling settings} for every configured role, in {@link #ROLES}
   * order; for config.json's {@code role_settings}, beside {@link #identity()}'s endpoint and model.
   */
  public Map<String, Map<String, Object>> settings() {
    Map<String, Map<String, Object>> out = new LinkedHashMap<>();
    roles.forEach((role, r) -> out.put(role, r.settings()));
    return Collections.unmodifiableMap(out);
  }

  /**
   * role name → its endpoint's {@code price_per_mtok} ({@code {"input": usd, "output": usd}}) for every configured
   * role a sweep calls, in {@link #ROLES} order: for config.json's {@code prices}. The ledgers price each call when it
   * is made, so a run resumed on other prices would hold two price lists.
   */
  public Map<String, Map<String, Object>> prices() {
    Map<String, Map<String, Object>> out = new LinkedHashMap<>();
    roles.forEach((role, r) -> {
      if (!SWEEP_ROLES.contains(role)) return;
      Map<String, Object> p = new LinkedHashMap<>();
      p.put("input", r.endpoint().priceInputPerMtok());
      p.put("output", r.endpoint().priceOutputPerMtok());
      out.put(role, p);
    });
    return Collections.unmodifiableMap(out);
  }

  /**
   * The environment variables the configured roles' endpoints read their keys from, sorted; a run checks them before
   * it starts and passes them (by name) to the processes that need them.
   */
  public Set<String> keyVariables() {
    TreeSet<String> out = new TreeSet<>();
    for (ResolvedRole r : roles.values()) {
      if (!r.endpoint().apiKeyEnv().isEmpty()) out.add(r.endpoint().apiKeyEnv());
    }
    return Collections.unmodifiableSet(out);
  }

  /**
   * The key variables that the endpoints of {@code roles} (those configured, in {@link #ROLES} order) read and that
   * {@code env} does not hold, or holds blank: variable → the endpoint that names it (its first role's). Only names
   * are returned, never a value.
   */
  public Map<String, String> unsetKeys(List<String> roles, Map<String, String> env) {
    Map<String, String> out = new LinkedHashMap<>();
    for (String role : ROLES) {
      ResolvedRole r = roles.contains(role) ? this.roles.get(role) : null;
      String var = r == null ? "" : r.endpoint().apiKeyEnv();
      if (var.isEmpty()) continue; // not configured, or an endpoint without a key
      String v = env.get(var);
      if (v == null || v.isBlank()) out.putIfAbsent(var, r.endpoint().name());
    }
    return Collections.unmodifiableMap(out);
  }

  /**
   * What {@link #unsetKeys} found, as a verb phrase: {@code is not set}, {@code is set but empty} (an {@code export
   * KEY=} with no value, dogAK F11) or, for several variables, {@code are not set}, {@code are set but empty} or
   * {@code are not set or are empty}.
   */
  public static String unsetState(Map<String, String> unset, Map<String, String> env) {
    long empty = unset.keySet().stream().filter(env::containsKey).count();
    String are = unset.size() == 1 ? "is" : "are";
    if (empty == 0) return are + " not set";
    if (empty == unset.size()) return are + " set but empty";
    return "are not set or are empty";
  }

  /** {@link #unsetKeys} as words: {@code X (api_key_env of endpoint e), Y (...)}. */
  public static String named(Map<String, String> unset) {
    List<String> out = new ArrayList<>();
    unset.forEach((var, endpoint) -> out.add(var + " (api_key_env of endpoint " + endpoint + ")"));
    return String.join(", ", out);
  }

  @Override public boolean equals(Object o) {
    return o instanceof RunConfig c && endpoints.equals(c.endpoints) && roles.equals(c.roles)
        && grants.equals(c.grants);
  }

  @Override public int hashCode() {
    return (31 * endpoints.hashCode() + roles.hashCode()) * 31 + grants.hashCode();
  }

  @Override public String toString() {
    return "RunConfig" + identity();
  }
}
