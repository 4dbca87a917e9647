package dev.h2beam.adapters.config;

import java.io.Serializable;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * A role of the configuration (executor, improver, selector, reflector, judge) with its endpoint resolved: everything
 * needed to call the model that serves it.
 *
 * @param temperature null when the file leaves it to the server
 * @param maxTokens null when the file leaves it to the server
 */
public record ResolvedRole(String role, Endpoint endpoint, String model, Double temperature, Integer maxTokens)
    implements Serializable {
  public ResolvedRole {
    Objects.requireNonNull(role, "role");
    Objects.requireNonNull(endpoint, "endpoint");
    Objects.requireNonNull(model, "model");
  }

  /** How the run identity names this role: {@code <base_url>#<model>}. */
  public String identity() {
    return endpoint.baseUrl() + "#" + model;
  }

  /**
   * The sampling settings the file gives this role ({@code temperature}, {@code max_tokens}), as config.json's
   * {@code role_settings} records them; a setting left to the server is absent. They change what the model answers as
   * much as the model does, so a run resumed with others is refused.
   */
  public Map<String, Object> settings() {
    Map<String, Object> out = new LinkedHashMap<>();
    if (temperature != null) out.put("temperature", temperature);
    if (maxTokens != null) out.put("max_tokens", maxTokens);
    return out;
  }
}
