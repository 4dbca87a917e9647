package dev.h2beam.pipelines.judge;

import com.fasterxml.jackson.databind.JsonNode;
import dev.h2beam.adapters.files.Json;
import dev.h2beam.adapters.model.Namespace;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.TreeSet;

/**
 * What the judge tells of the tasks it did not read: those config.json lists with no summary.json at all, and the
 * rows judged.json keeps for tasks whose summary is now unreadable. Either would otherwise make a namespace count
 * fewer (or older) rows without a word.
 */
final class ListedTasks {
  private ListedTasks() {}

  /**
   * The tasks {@code ns}'s config.json lists whose {@code <task>/summary.json} is known not to exist, in name order:
   * none when config.json lists no tasks or cannot be read (the judge's identity check names that file). A summary
   * whose existence this user cannot tell is not among them: the judge names it unreadable.
   */
  static List<String> missing(Path ns) {
    Path config = ns.resolve("config.json");
    JsonNode tasks;
    try {
      tasks = Files.isRegularFile(config) ? Json.readTree(config).get("tasks") : null;
    } catch (IOException e) {
      return List.of();
    }
    TreeSet<String> out = new TreeSet<>();
    if (tasks == null || !tasks.isArray()) return List.of();
    for (JsonNode t : tasks) {
      // h2beam records [domain, task id]; a bare id is read as one
      String id = t.isArray() && t.size() > 0 ? t.get(t.size() - 1).asText() : t.asText();
      if (!id.isEmpty() && Files.notExists(ns.resolve(Namespace.slug(id)).resolve("summary.json"))) out.add(id);
    }
    return new ArrayList<>(out);
  }

  /**
   * The rows of {@code merged} that were not judged this run ({@code fresh}) and whose task's summary is among
   * {@code problems} (each {@code "<summary path>: <why>"}): judged.json keeps them as an earlier judge wrote them.
   * Each as {@code "<task> <mode> k=<k>"}.
   */
  static List<String> keptUnread(String ns, Collection<JudgedRow> merged, Collection<JudgedRow> fresh,
      Collection<String> problems) {
    TreeSet<String> judged = new TreeSet<>();
    fresh.forEach(r -> judged.add(r.key()));
    List<String> out = new ArrayList<>();
    for (JudgedRow r : merged) {
      if (judged.contains(r.key())) continue;
      String prefix = Path.of(ns).resolve(Namespace.slug(r.taskId())).resolve("summary.json") + ": ";
      if (problems.stream().anyMatch(p -> p.startsWith(prefix))) {
        out.add(r.taskId() + " " + r.mode() + " k=" + r.k());
      }
    }
    return out;
  }
}
