package dev.h2beam.adapters.model;

/**
 * The outcome of one attempt of one agent session: its reply text (blank means no reply), cost, and an error
 * description when the session did not answer.
 */
public record SessionResult(String text, double costUsd, String error) {
  public SessionResult {
    text = text == null ? "" : text;
    error = error == null ? "" : error;
  }

  public static SessionResult reply(String text, double costUsd) {
    return new SessionResult(text, costUsd, "");
  }

  public static SessionResult failed(String error, double costUsd) {
    return new SessionResult("", costUsd, error);
  }
}
