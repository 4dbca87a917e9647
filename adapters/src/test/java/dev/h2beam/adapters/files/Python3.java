package dev.h2beam.adapters.files;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/** Runs the real CPython as the reference implementation; tests are skipped where no python3 is installed. */
final class Python3 {
  private Python3() {}

  private static Boolean available;

  /** Skips the calling test unless {@code python3} runs. */
  static synchronized void assumeAvailable() {
    if (available == null) {
      try {
        Process p = new ProcessBuilder("python3", "-c", "pass").redirectErrorStream(true).start();
        p.getInputStream().readAllBytes();
        available = p.waitFor() == 0;
      } catch (IOException e) {
        available = false;
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        available = false;
      }
    }
    assumeTrue(available, "python3 is not installed");
  }

  /** The stdout of {@code python3 -c script args...}, decoded as UTF-8; fails the test on a non-zero exit. */
  static String run(String script, String... args) throws IOException, InterruptedException {
    assumeAvailable();
    List<String> cmd = new ArrayList<>(List.of("python3", "-c", script));
    cmd.addAll(List.of(args));
    ProcessBuilder pb = new ProcessBuilder(cmd);
    pb.environment().put("PYTHONIOENCODING", "utf-8");
    pb.redirectError(ProcessBuilder.Redirect.DISCARD);
    Process p = pb.start();
    p.getOutputStream().close();
    byte[] out;
    try (InputStream in = p.getInputStream()) {
      ByteArrayOutputStream buf = new ByteArrayOutputStream();
      in.transferTo(buf);
      out = buf.toByteArray();
    }
    assertEquals(0, p.waitFor(), "python3 failed on: " + script);
    return new String(out, StandardCharsets.UTF_8);
  }

  /** {@code json.dumps(<pythonExpr>, <dumpsArgs>)} as CPython writes it. */
  static String dumps(String pythonExpr, String dumpsArgs) throws IOException, InterruptedException {
    return run("import json, sys; sys.stdout.write(json.dumps(" + pythonExpr + ", " + dumpsArgs + "))");
  }
}
