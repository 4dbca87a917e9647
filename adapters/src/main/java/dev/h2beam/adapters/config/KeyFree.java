package dev.h2beam.adapters.config;

import java.util.List;
import java.util.Set;

/**
 * Text without the keys h2beam holds ({@link EnvKeys#current}, in every form a screen looks for), each replaced by
 * {@link EnvKeys#REDACTED}: for what comes in from outside and is then printed or kept, such as a model's reply (an
 * endpoint or a gateway that echoes the key it was sent) or a line for the console. Unlike {@link EnvKeys#redact} it
 * leaves provider-shaped text that is no held key as it is: a reply keeps its meaning, and the screens still see
 * such text and refuse it where a credential does not belong.
 */
public final class KeyFree {
  private KeyFree() {}

  /** {@code s} without the held keys' forms; {@code s} itself when none is held or none is in it. */
  public static String text(String s) {
    return text(s, null);
  }

  /** The same, adding to {@code found} (when not null) the variable of each key found. */
  public static String text(String s, Set<String> found) {
    List<EnvKeys.Held> held = EnvKeys.current();
    if (s == null || held.isEmpty()) return s;
    String out = s;
    for (EnvKeys.Held h : held) {
      for (String form : h.forms()) {
        if (!out.contains(form)) continue;
        out = out.replace(form, EnvKeys.REDACTED);
        if (found != null) found.add(h.variable());
      }
    }
    return out;
  }

  /**
   * Refuses {@code value}, given as {@code what}, when it holds a key h2beam holds: a command written with a key's
   * value runs with it in its process list and is recorded as its program's identity (config.json, every run's
   * marker), where other users can read it (dogAB 1). The message names the variable, never the value.
   *
   * @throws IllegalArgumentException naming {@code what} and the variable
   */
  public static void refuseIn(String what, String value) {
    Set<String> found = new java.util.TreeSet<>();
    String shown = text(value, found);
    if (found.isEmpty()) return;
    String names = "$" + String.join(", $", found);
    throw new IllegalArgumentException(what + " holds the value of " + names + ", a key h2beam holds (" + shown
        + "): it would be recorded in config.json and in every run's marker, and shown in the process list; name the"
        + " variable instead ('" + names + "', single-quoted, for the program to read from its environment: a"
        + " grader command inherits h2beam's, an executor's command gets the variables its env_allow names)");
  }
}
