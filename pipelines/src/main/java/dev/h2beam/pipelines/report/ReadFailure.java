package dev.h2beam.pipelines.report;

import java.io.PrintWriter;
import java.io.Serializable;
import java.io.StringWriter;

/**
 * An input file the report could not read or parse: the path, the step, the message and the stack trace. It is
 * printed and counted, and nothing it held enters a figure.
 */
public record ReadFailure(String input, String stage, String message, String stackTrace) implements Serializable {

  public static ReadFailure of(String input, String stage, Exception e) {
    StringWriter trace = new StringWriter();
    e.printStackTrace(new PrintWriter(trace));
    String message = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
    return new ReadFailure(input, stage, message.lines().findFirst().orElse(""), trace.toString());
  }

  /** harness2's console line for a file it skipped. */
  public String line() {
    return "  ! skipping unreadable " + input + ": " + message;
  }
}
