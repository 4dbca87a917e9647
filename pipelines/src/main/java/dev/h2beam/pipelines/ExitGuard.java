package dev.h2beam.pipelines;

import java.io.PrintStream;
import java.util.Set;

/**
 * Keeps the exit code's promise when code h2beam does not own ends the process: a plug-in (a gated method, a grader,
 * a benchmark) that calls {@code System.exit(0)} while a command runs would otherwise end a sweep with exit 0, no
 * summaries and no sweep record, and a script chaining sweep, judge and report would go on. Such an exit is said in
 * one line and ends with 1, once h2beam's own exit hooks (the records in progress, the programs still running, the
 * writer locks) are done. An exit h2beam makes (the command's code returned, a stop on request) is left alone.
 */
final class ExitGuard {
  private ExitGuard() {}

  /** Set when the command has returned its exit code, which {@code System.exit} then ends the process with. */
  private static volatile boolean returned;

  /** The shutdown hooks of h2beam's own that the guard lets finish first, by their threads' names. */
  private static final Set<String> OWN_HOOKS = Set.of("h2beam-record-writer-drain", "h2beam-kill-at-exit",
      "h2beam-lock-release");

  /** Guards this process's exit from now on; {@code command} names what runs, for the line. */
  static void install(String command, PrintStream err) {
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      if (returned || StopRequest.requested()) return;
      err.println("h2beam: " + command + " was ended by an exit h2beam did not ask for (System.exit in a plug-in, or"
          + " in a library it runs), before it finished; exit code 1. " + StopRequest.RESUME);
      err.flush();
      for (Thread t : Thread.getAllStackTraces().keySet()) {
        if (t != Thread.currentThread() && OWN_HOOKS.contains(t.getName())) {
          try {
            t.join(15_000);
          } catch (InterruptedException e) {
            break;
          }
        }
      }
      Runtime.getRuntime().halt(1);
    }, "h2beam-exit-guard"));
  }

  /** The command returned: the exit that follows is h2beam's own. */
  static void returned() {
    returned = true;
  }
}
