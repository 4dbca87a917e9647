package dev.h2beam.demo;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.h2beam.adapters.files.Json;
import dev.h2beam.transforms.summary.SummaryFile;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Runs the demo command in a test folder and reads what it wrote. */
final class DemoRuns {
  private DemoRuns() {}

  /** Runs {@code h2beam demo} with these options into {@code out}; returns the exit code. */
  static int demo(Path out, String... options) throws Exception {
    List<String> args = new ArrayList<>(List.of("--output=" + out, "--sessionRetryWaitSeconds=0"));
    args.addAll(List.of(options));
    return new DemoCommand().run(args.toArray(new String[0]));
  }

  static Map<String, Object> demoJson(Path out) throws IOException {
    return Json.readMap(out.resolve("demo.json"));
  }

  static Map<String, Object> summary(Path out, int k, String task) throws IOException {
    return SummaryFile.read(out.resolve("runs").resolve("demo-oc-agg" + k).resolve(task).resolve("summary.json"));
  }

  @SuppressWarnings("unchecked")
  static Map<String, Object> at(Map<String, Object> m, String... keys) {
    Object cur = m;
    for (String key : keys) cur = ((Map<String, Object>) cur).get(key);
    return (Map<String, Object>) cur;
  }

  @SuppressWarnings("unchecked")
  static List<String> statuses(Map<String, Object> demoJson) {
    List<String> out = new ArrayList<>();
    for (Object t : (List<Object>) demoJson.get("tasks")) out.add(String.valueOf(((Map<String, Object>) t).get("status")));
    return out;
  }

  static int count(Map<String, Object> demoJson, String key) {
    return ((Number) demoJson.get(key)).intValue();
  }

  static String read(Path p) throws IOException {
    return Files.readString(p);
  }

  static void assertStatuses(Map<String, Object> demoJson, String... expected) {
    assertEquals(List.of(expected), statuses(demoJson));
  }
}
