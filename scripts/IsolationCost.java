import dev.h2beam.adapters.exec.Env;
import dev.h2beam.adapters.exec.Isolation;
import dev.h2beam.adapters.exec.ProcessRunner;
import dev.h2beam.adapters.exec.ProcessSpec;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;

/**
 * What {@code --isolation=namespaces} adds to starting a program: N runs of {@code sh -c true} through h2beam's
 * ProcessRunner as it starts every executor, plain and isolated (a benchmark folder hidden, a run folder inside it
 * shown), alternating in four rounds since this kind of machine drifts; prints the wall milliseconds per program. As a
 * source file, after a build:
 *   java -cp "adapters/target/classes:$(tr ':' '\n' < demo/target/h2beam.classpath | grep -E 'slf4j|jackson' \
 *     | paste -sd:)" scripts/IsolationCost.java 100
 */
public class IsolationCost {
  public static void main(String[] args) throws Exception {
    int n = Integer.parseInt(args[0]);
    Path dir = Files.createTempDirectory("h2beam-isolation-cost");
    Files.createDirectories(dir.resolve("bench/tasks/d/t/grading"));
    Path run = Files.createDirectories(dir.resolve("bench/runs/_executions/ns/d/t/base1"));
    Isolation isolation = new Isolation(List.of(dir.resolve("bench")), List.of()).showing(run);
    for (int round = 1; round <= 4; round++) {
      for (boolean isolated : new boolean[] {false, true}) {
        long t0 = System.nanoTime();
        for (int i = 0; i < n; i++) {
          ProcessSpec spec = ProcessSpec.of(List.of("sh", "-c", "true"), run, Env.base(System.getenv()),
              dir.resolve("out.txt"), dir.resolve("err.txt"), Duration.ofSeconds(30));
          Integer exit = ProcessRunner.run(isolated ? spec.withIsolation(isolation) : spec).exit();
          if (exit == null || exit != 0) throw new IllegalStateException("exit " + exit + (isolated ? " isolated" : ""));
        }
        System.out.printf(Locale.ROOT, "round %d %-8s %6.1f ms per program%n", round, isolated ? "isolated" : "plain",
            (System.nanoTime() - t0) / 1e6 / n);
      }
    }
  }
}
