package dev.h2beam.pipelines.sweep;

import dev.h2beam.adapters.files.Json;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The roles' sampling settings in the run identity, config.json's {@code role_settings} (h2beam's own key, beside
 * {@code roles}, which holds each role's endpoint and model): {@code {role: {"temperature": t, "max_tokens": n}}},
 * a setting the configuration leaves to the server absent. A temperature or token limit changes what a model answers
 * as much as another model would, so a resume with other settings is refused, naming the field.
 */
final class RoleSettings {
  private RoleSettings() {}

  /** config.json's key. */
  static final String KEY = "role_settings";

  /**
   * config.json's key for the prices of each role's endpoint ({@code {role: {"input": usd, "output": usd}}} per
   * million tokens): the ledgers price each call when it is made, so a resume on other prices would mix two price
   * lists in one run's costs, and is refused like another setting.
   */
  static final String PRICES = "prices";

  /**
   * Each setting that differs between {@code before} (as read from config.json) and {@code now}, as
   * {@code roles.<role>.<setting> was X when this run began, now Y} ({@code roles.<role>.<what> <setting>} when
   * {@code what} says whose setting it is); a role only one side has is not listed (the {@code roles} key tells that
   * apart).
   */
  @SuppressWarnings("unchecked")
  static List<String> changes(Object before, Map<String, Map<String, Object>> now, String what) {
    List<String> out = new ArrayList<>();
    Map<String, Object> old = before instanceof Map ? (Map<String, Object>) before : Map.of();
    now.forEach((role, settings) -> {
      if (!(old.get(role) instanceof Map)) return;
      Map<String, Object> was = (Map<String, Object>) old.get(role);
      Set<String> names = new LinkedHashSet<>(was.keySet());
      names.addAll(settings.keySet());
      for (String name : names) {
        String a = shown(was.get(name));
        String b = shown(settings.get(name));
        if (!a.equals(b)) {
          out.add("roles." + role + "." + (what.isEmpty() ? "" : what + " ") + name + " was " + a
              + " when this run began, now " + b);
        }
      }
    });
    return out;
  }

  private static String shown(Object value) {
    return value == null ? "unset (the server's default)" : Json.canonical(value);
  }

  /**
   * The refusal for {@code changes} of the identity recorded in {@code file} under {@code key}, naming the
   * configuration file; {@code elsewhere} is where a different experiment goes ({@link Sweep#elsewhere}).
   */
  static String refusal(Path file, String key, String configFile, List<String> changes, String elsewhere) {
    return file + " records a different run identity (" + key + "): in --config=" + configFile + ", "
        + String.join("; ", changes) + ". Restore the setting, or use " + elsewhere
        + " for a different experiment" + (key.equals(PRICES) ? " (its finished work was priced at the recorded prices)"
        : "");
  }
}
