package dev.h2beam.adapters.config;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.regex.Pattern;

/**
 * Reads a run configuration tree and collects every problem before giving up, so one look at the error shows all a
 * file needs. Each problem reads {@code <file>: <key path>: <what is wrong>; <what to do>}. Values are quoted back
 * only when they cannot be a key: anything shaped like a provider key, and anything under a key-like name, is named
 * by its path alone.
 */
final class ConfigReader {
  static final String KEY_ADVICE =
      "put the key in an environment variable and name it in api_key_env; rotate the key, since it was written to a file";

  /** Key names that can only hold a literal secret; compared lower-case with '_' and '-' removed. */
  private static final Set<String> KEY_NAMES = Set.of("apikey", "key", "token", "secret", "password");

  private static final List<String> TOP_KEYS = List.of("endpoints", "roles", "grants");
  private static final List<String> ENDPOINT_KEYS = List.of(
      "base_url", "api_key_env", "max_concurrency", "timeout_seconds", "max_attempts", "price_per_mtok",
      "requests_per_minute", "tokens_per_minute");
  private static final List<String> PRICE_KEYS = List.of("input", "output");
  private static final List<String> ROLE_KEYS = List.of("endpoint", "model", "temperature", "max_tokens");
  private static final Pattern ENV_NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");
  private static final Pattern ENDPOINT_NAME = Pattern.compile("[A-Za-z0-9_.-]+");
  private static final int SHOWN_CHARS = 80;

  static final int DEFAULT_MAX_CONCURRENCY = 8;
  static final int DEFAULT_TIMEOUT_SECONDS = 600;
  static final int DEFAULT_MAX_ATTEMPTS = 4;

  // Duplicate keys are refused rather than last-one-wins; source text never goes into a parse error's location.
  private static final ObjectMapper YAML = YAMLMapper.builder()
      .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
      .disable(StreamReadFeature.INCLUDE_SOURCE_IN_LOCATION)
      .build();
  private static final ObjectMapper JSON = JsonMapper.builder()
      .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
      .disable(StreamReadFeature.INCLUDE_SOURCE_IN_LOCATION)
      .build();

  private final String source;
  private final List<String> problems = new ArrayList<>();

  private ConfigReader(String source) {
    this.source = source;
  }

  static RunConfig parse(String text, String source) {
    return new ConfigReader(source).read(text);
  }

  private RunConfig read(String text) {
    JsonNode root = tree(text);
    if (root == null || root.isMissingNode() || root.isNull()) {
      throw new ConfigError(source + ": the file is empty; give it endpoints: and roles: (see RunConfig's Javadoc)");
    }
    screenKeys(root, "");
    if (!root.isObject()) {
      problem("(top level)", "must be a mapping with endpoints: and roles:, got " + kind(root));
      throw new ConfigError(source, problems);
    }
    unknownKeys(root, "", TOP_KEYS);
    Map<String, Endpoint> endpoints = endpoints(root.get("endpoints"));
    Map<String, ResolvedRole> roles = roles(root.get("roles"), endpoints, names(root.get("endpoints")));
    List<ReferenceGrant> grants = grants(root.get("grants"), names(root.get("endpoints")));
    if (!problems.isEmpty()) throw new ConfigError(source, problems);
    return new RunConfig(endpoints, roles, grants);
  }

  private JsonNode tree(String text) {
    String body = text.startsWith("\uFEFF") ? text.substring(1) : text;
    boolean json = body.strip().startsWith("{");
    try {
      return (json ? JSON : YAML).readTree(body);
    } catch (JsonProcessingException e) {
      JsonLocation at = e.getLocation();
      String where = at == null ? "" : " at line " + at.getLineNr() + ", column " + at.getColumnNr();
      // only the first line of the parser's message: later lines of a YAML error quote the offending source line
      String why = KeyShapes.redact(firstLine(e.getOriginalMessage()));
      throw new ConfigError(source + ": not valid " + (json ? "JSON" : "YAML") + where + ": " + why
          + "; fix the syntax (YAML, or JSON starting with '{')");
    }
  }

  /** Refuses literal keys anywhere: key-like names at any depth, and any string shaped like a provider key. */
  private void screenKeys(JsonNode node, String path) {
    if (node.isObject()) {
      for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
        Map.Entry<String, JsonNode> f = it.next();
        String at = join(path, f.getKey());
        if (isKeyName(f.getKey())) {
          problem(at, "a literal key is not allowed in the file; " + KEY_ADVICE);
        } else if (KeyShapes.containsKey(f.getKey())) {
          problem(at, "this key name looks like a provider key; " + KEY_ADVICE);
        } else {
          screenKeys(f.getValue(), at);
        }
      }
    } else if (node.isArray()) {
      for (int i = 0; i < node.size(); i++) screenKeys(node.get(i), path + "[" + i + "]");
    } else if (node.isTextual() && KeyShapes.containsKey(node.asText())) {
      problem(path, "holds what looks like a provider key (not shown); " + KEY_ADVICE);
    }
  }

  private Map<String, Endpoint> endpoints(JsonNode node) {
    Map<String, Endpoint> out = new LinkedHashMap<>();
    Map<String, JsonNode> entries = entries(node, "endpoints", "name each endpoint with its base_url, e.g."
        + " endpoints: {local: {base_url: \"http://127.0.0.1:8000/v1\"}}",
        name -> ENDPOINT_NAME.matcher(name).matches() ? null
            : "an endpoint name may hold only letters, digits, '_', '.' and '-'; rename it",
        "base_url and the endpoint's settings", ENDPOINT_KEYS);
    entries.forEach((name, e) -> {
      String at = join("endpoints", name);
      String baseUrl = baseUrl(e.get("base_url"), at + ".base_url");
      String keyEnv = keyEnv(e.get("api_key_env"), at + ".api_key_env");
      int concurrency = whole(e.get("max_concurrency"), at + ".max_concurrency", DEFAULT_MAX_CONCURRENCY);
      int timeout = whole(e.get("timeout_seconds"), at + ".timeout_seconds", DEFAULT_TIMEOUT_SECONDS);
      int attempts = whole(e.get("max_attempts"), at + ".max_attempts", DEFAULT_MAX_ATTEMPTS);
      double[] prices = prices(e.get("price_per_mtok"), at + ".price_per_mtok");
      int rpm = whole(e.get("requests_per_minute"), at + ".requests_per_minute", 0);
      int tpm = whole(e.get("tokens_per_minute"), at + ".tokens_per_minute", 0);
      if (baseUrl != null) {
        out.put(name, new Endpoint(name, baseUrl, keyEnv, concurrency, timeout, attempts, prices[0], prices[1], rpm,
            tpm));
      }
    });
    return out;
  }

  private Map<String, ResolvedRole> roles(JsonNode node, Map<String, Endpoint> endpoints, List<String> declared) {
    Map<String, ResolvedRole> out = new LinkedHashMap<>();
    Map<String, JsonNode> entries = entries(node, "roles", "say which endpoint and model serve each role, e.g."
        + " roles: {improver: {endpoint: local, model: \"qwen2.5-7b-instruct\"}}",
        role -> RunConfig.ROLES.contains(role) ? null
            : "unknown role; known roles: " + String.join(", ", RunConfig.ROLES),
        "endpoint and model", ROLE_KEYS);
    entries.forEach((role, r) -> {
      String at = join("roles", role);
      String endpoint = endpointName(r.get("endpoint"), at + ".endpoint", declared);
      String model = text(r.get("model"), at + ".model", "name the model the endpoint serves, e.g. "
          + "\"qwen2.5-7b-instruct\"");
      Double temperature = temperature(r.get("temperature"), at + ".temperature");
      Integer maxTokens = absent(r.get("max_tokens")) ? null : whole(r.get("max_tokens"), at + ".max_tokens", 1);
      Endpoint e = endpoint == null ? null : endpoints.get(endpoint);
      if (e != null && model != null) out.put(role, new ResolvedRole(role, e, model, temperature, maxTokens));
    });
    return out;
  }

  /**
   * The reference egress grants: a list of mappings, each naming every field of {@link ReferenceGrant}, an endpoint
   * the file defines, and a benchmark no other grant names (a configuration has one judge, so one grant per
   * benchmark is all it can use).
   */
  private List<ReferenceGrant> grants(JsonNode node, List<String> declared) {
    List<ReferenceGrant> out = new ArrayList<>();
    if (absent(node)) return out;
    String example = "e.g. grants: [{benchmark: signed_sums, endpoint: local, model: \"judge-model\","
        + " references: \"grading/rubric.json\"}]";
    if (!node.isArray()) {
      problem("grants", "must be a list of grants, got " + kind(node) + "; " + example);
      return out;
    }
    Map<String, String> byBenchmark = new LinkedHashMap<>();
    for (int i = 0; i < node.size(); i++) {
      String at = "grants[" + i + "]";
      JsonNode g = node.get(i);
      if (!g.isObject()) {
        problem(at, "must be a mapping with " + String.join(", ", ReferenceGrant.FIELDS) + ", got " + kind(g) + "; "
            + example);
        continue;
      }
      unknownKeys(g, at, ReferenceGrant.FIELDS);
      String benchmark = text(g.get("benchmark"), at + ".benchmark", "name the benchmark whose references the judge"
          + " may send, as its namespaces name it, e.g. signed_sums");
      String endpoint = endpointName(g.get("endpoint"), at + ".endpoint", declared);
      String model = text(g.get("model"), at + ".model", "name the pinned judge model, exactly as roles.judge.model"
          + " names it");
      String references = text(g.get("references"), at + ".references", "name what the judge sends, e.g."
          + " \"grading/rubric.json\" for the rubric judge");
      if (benchmark == null || endpoint == null || model == null || references == null) continue;
      String earlier = byBenchmark.putIfAbsent(benchmark, at);
      if (earlier != null) {
        problem(at + ".benchmark", "benchmark " + shown(g.get("benchmark")) + " already has a grant (" + earlier
            + "); a configuration has one judge, so keep the one that names its endpoint and model");
        continue;
      }
      out.add(new ReferenceGrant(benchmark, endpoint, model, references));
    }
    return out;
  }

  /**
   * The entries of a section ({@code endpoints:}, {@code roles:}) that can be read further: a name the key screen let
   * through and {@code badName} accepts (it returns the problem, or null), with a mapping for a value; the unknown
   * keys of each are reported here.
   */
  private Map<String, JsonNode> entries(JsonNode node, String path, String advice, Function<String, String> badName,
      String shape, List<String> known) {
    Map<String, JsonNode> out = new LinkedHashMap<>();
    if (!mapping(node, path, advice)) return out;
    for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> f = it.next();
      String at = join(path, f.getKey());
      if (screened(f.getKey())) continue;
      String bad = badName.apply(f.getKey());
      if (bad != null) {
        problem(at, bad);
      } else if (!f.getValue().isObject()) {
        problem(at, "must be a mapping with " + shape + ", got " + kind(f.getValue()));
      } else {
        unknownKeys(f.getValue(), at, known);
        out.put(f.getKey(), f.getValue());
      }
    }
    return out;
  }

  /** The name of an endpoint the file defines, or null: a problem, unless the key screen already refused it. */
  private String endpointName(JsonNode node, String path, List<String> declared) {
    String endpoint = text(node, path, "name one of the endpoints: " + declared);
    if (endpoint == null || declared.contains(endpoint)) return endpoint;
    if (!KeyShapes.containsKey(endpoint)) {
      problem(path, "no endpoint named " + shown(node) + "; defined endpoints: " + declared);
    }
    return null;
  }

  private String baseUrl(JsonNode node, String path) {
    String advice = "give an absolute http(s) URL such as \"http://127.0.0.1:8000/v1\"";
    if (absent(node)) {
      problem(path, "missing; " + advice);
      return null;
    }
    if (!node.isTextual()) {
      problem(path, "must be a URL string, got " + shown(node) + "; " + advice);
      return null;
    }
    String raw = node.asText().strip();
    if (KeyShapes.containsKey(raw)) return null; // already refused by the key screen
    URI uri;
    try {
      uri = new URI(raw);
    } catch (URISyntaxException e) {
      problem(path, "is not a URL (" + e.getReason() + "); " + advice);
      return null;
    }
    if (uri.getRawUserInfo() != null) {
      // never quoted: the user-info part is a password written into the file
      problem(path, "must not carry a user or password (user:password@host); " + KEY_ADVICE);
      return null;
    }
    String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
    if (!(scheme.equals("http") || scheme.equals("https")) || uri.getHost() == null
        || uri.getRawQuery() != null || uri.getRawFragment() != null) {
      // a query or fragment is not quoted back: it may carry a key (?api-key=...)
      int cut = raw.length();
      for (char c : new char[] {'?', '#'}) if (raw.indexOf(c) >= 0) cut = Math.min(cut, raw.indexOf(c));
      String url = cut < raw.length() ? shown(com.fasterxml.jackson.databind.node.TextNode.valueOf(raw.substring(0,
          cut))) + " followed by a query or fragment (not shown: it may hold a key)" : shown(node);
      problem(path, "must be an absolute http(s) URL without query or fragment, got " + url + "; " + advice);
      return null;
    }
    String url = raw;
    while (url.endsWith("/")) url = url.substring(0, url.length() - 1);
    return url;
  }

  private String keyEnv(JsonNode node, String path) {
    if (absent(node)) return "";
    if (!node.isTextual()) {
      problem(path, "must name an environment variable, got " + kind(node) + "; e.g. api_key_env: OPENAI_API_KEY");
      return "";
    }
    String name = node.asText().strip();
    if (name.isEmpty() || KeyShapes.containsKey(name)) return "";
    if (!ENV_NAME.matcher(name).matches()) {
      // not quoted back: a value here that is not a variable name may be the key itself
      problem(path, "must be the name of an environment variable ([A-Za-z_][A-Za-z0-9_]*), e.g. OPENAI_API_KEY;"
          + " the value is not shown in case it is the key itself: if it is, " + KEY_ADVICE);
      return "";
    }
    EnvKeys.Held held = EnvKeys.foundIn(name);
    if (held != null) {
      // a variable's value given where its name belongs: not quoted back, and the variable named instead
      problem(path, "holds the value of the environment variable " + held.variable() + ", not a variable's name;"
          + " write api_key_env: " + held.variable());
      return "";
    }
    return name;
  }

  private double[] prices(JsonNode node, String path) {
    double[] out = {0.0, 0.0};
    if (absent(node)) return out;
    if (!node.isObject()) {
      problem(path, "must be a mapping {input: USD, output: USD} per million tokens, got " + kind(node));
      return out;
    }
    unknownKeys(node, path, PRICE_KEYS);
    for (int i = 0; i < PRICE_KEYS.size(); i++) {
      JsonNode p = node.get(PRICE_KEYS.get(i));
      if (absent(p)) continue;
      if (p.isNumber() && Double.isFinite(p.asDouble()) && p.asDouble() >= 0) {
        out[i] = p.asDouble();
      } else {
        problem(path + "." + PRICE_KEYS.get(i), "must be a number >= 0 (USD per million tokens), got " + shown(p));
      }
    }
    return out;
  }

  private Double temperature(JsonNode node, String path) {
    if (absent(node)) return null;
    if (node.isNumber() && node.asDouble() >= 0 && node.asDouble() <= 2) return node.asDouble();
    problem(path, "must be a number from 0 to 2, or left out to use the server's default, got " + shown(node));
    return null;
  }

  /** A whole number >= 1, or {@code otherwise} when absent or wrong (a wrong one is a problem). */
  private int whole(JsonNode node, String path, int otherwise) {
    if (absent(node)) return otherwise;
    if (node.isIntegralNumber() && node.canConvertToInt() && node.intValue() >= 1) return node.intValue();
    problem(path, "must be a whole number >= 1, got " + shown(node) + "; write it without quotes, e.g. 4");
    return otherwise;
  }

  private String text(JsonNode node, String path, String advice) {
    if (absent(node)) {
      problem(path, "missing; " + advice);
      return null;
    }
    if (!node.isTextual() || node.asText().isBlank()) {
      problem(path, "must be a non-blank string, got " + shown(node) + "; " + advice);
      return null;
    }
    return node.asText().strip();
  }

  private boolean mapping(JsonNode node, String path, String advice) {
    if (absent(node)) {
      problem(path, "missing; " + advice);
      return false;
    }
    if (!node.isObject() || node.isEmpty()) {
      problem(path, "must be a non-empty mapping, got " + kind(node) + "; " + advice);
      return false;
    }
    return true;
  }

  private void unknownKeys(JsonNode node, String path, List<String> known) {
    for (Iterator<String> it = node.fieldNames(); it.hasNext(); ) {
      String key = it.next();
      if (!known.contains(key) && !screened(key)) {
        problem(join(path, key), "unknown key; known keys here: " + String.join(", ", known) + "; check the spelling");
      }
    }
  }

  private static List<String> names(JsonNode endpoints) {
    List<String> out = new ArrayList<>();
    if (endpoints != null && endpoints.isObject()) endpoints.fieldNames().forEachRemaining(out::add);
    return out;
  }

  /** Whether the key screen has already refused this name (its problem is reported once, there). */
  private static boolean screened(String name) {
    return isKeyName(name) || KeyShapes.containsKey(name);
  }

  private static boolean isKeyName(String name) {
    return KEY_NAMES.contains(name.toLowerCase(Locale.ROOT).replace("_", "").replace("-", ""));
  }

  private static boolean absent(JsonNode node) {
    return node == null || node.isNull() || node.isMissingNode();
  }

  private static String join(String path, String key) {
    String seg = KeyShapes.containsKey(key) ? "<key-shaped name>" : key;
    return path.isEmpty() ? seg : path + "." + seg;
  }

  /** A value as the message quotes it: clipped, and never when it is shaped like a key or holds a held key's value. */
  private static String shown(JsonNode node) {
    if (node.isTextual()) {
      String s = node.asText();
      if (KeyShapes.containsKey(s)) return "a value shaped like a key (not shown)";
      EnvKeys.Held held = EnvKeys.foundIn(s);
      if (held != null) return "the value of the environment variable " + held.variable() + " (not shown)";
      String clipped = s.length() > SHOWN_CHARS ? s.substring(0, SHOWN_CHARS) + "…" : s;
      return "\"" + clipped.replaceAll("\\p{Cntrl}", "?") + "\"";
    }
    return node.isValueNode() ? node.toString() : kind(node);
  }

  private static String kind(JsonNode node) {
    if (node.isObject()) return "a mapping";
    if (node.isArray()) return "a list";
    return node.isTextual() ? "a string" : node.isNull() ? "nothing" : "the value " + node;
  }

  private static String firstLine(String s) {
    String t = s == null ? "" : s.strip();
    int nl = t.indexOf('\n');
    return nl < 0 ? t : t.substring(0, nl).strip();
  }

  private void problem(String path, String what) {
    problems.add(source + ": " + path + ": " + what);
  }
}
