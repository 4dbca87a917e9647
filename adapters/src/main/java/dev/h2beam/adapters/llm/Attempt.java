package dev.h2beam.adapters.llm;

import java.time.Duration;
import java.util.Objects;

/**
 * What one HTTP attempt of a chat call came to: an answer, a transient failure worth another attempt (with the wait
 * the server asked for, if any), or a fatal one. {@link ChatClient} turns a run of these into a reply or an exception.
 */
sealed interface Attempt {

  /** The usage the server reported for this attempt; {@link Usage#NONE} when it reported none. */
  Usage usage();

  /** A reply with content. */
  record Answered(String text, String model, String finishReason, Usage usage) implements Attempt {
    public Answered {
      Objects.requireNonNull(text, "text");
      usage = usage == null ? Usage.NONE : usage;
    }
  }

  /**
   * A failure another attempt may cure: 429, 5xx, a timeout, a refused or dropped connection, an empty or unparsable
   * reply.
   *
   * @param retryAfter the wait the server asked for, or null
   */
  record Transient(String reason, Duration retryAfter, Usage usage, boolean errorReply) implements Attempt {
    public Transient {
      Objects.requireNonNull(reason, "reason");
      usage = usage == null ? Usage.NONE : usage;
    }

    /**
     * Not an error reply.
     *
     * @see #errorReply() a success status whose body is an error object, no answer: taken as unbilled as an error
     *     status is (a gateway's way of saying 5xx)
     */
    Transient(String reason, Duration retryAfter, Usage usage) {
      this(reason, retryAfter, usage, false);
    }

    static Transient of(String reason) {
      return new Transient(reason, null, Usage.NONE);
    }
  }

  /**
   * A failure no retry cures: a 4xx other than 429 (a wrong model, a refused key, a malformed request), or a reply
   * the same request would get again (cut off at max_tokens, stopped by a content filter), with the usage it reported.
   */
  record Fatal(String reason, Usage usage) implements Attempt {
    public Fatal {
      Objects.requireNonNull(reason, "reason");
      usage = usage == null ? Usage.NONE : usage;
    }

    Fatal(String reason) {
      this(reason, Usage.NONE);
    }
  }
}
