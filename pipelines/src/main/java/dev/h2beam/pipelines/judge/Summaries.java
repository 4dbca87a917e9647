package dev.h2beam.pipelines.judge;

import com.fasterxml.jackson.databind.JsonNode;
import dev.h2beam.adapters.files.Json;
import dev.h2beam.adapters.model.Namespace;
import dev.h2beam.pipelines.files.FileShapes;
import java.io.IOException;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Reads what the judge needs from a summary.json, h2beam's or the Python harness2's (legacy {@code arm}/{@code arms}). */
public final class Summaries {
  private Summaries() {}

  /**
   * The selection records of the requested modes, in mode order. A mode without a selection gives no item, unless
   * the summary records that mode as failed ({@code modes.<mode>.ok} false) or the task as {@code base-failed} (every
   * base rollout failed, so no mode ran): its item is then that failure, judged as an absence with its reason
   * ({@link SelectionItem#modeFailed}, {@link SelectionItem#baseFailed}), so a task is never simply missing.
   */
  public static List<SelectionItem> selections(String namespace, String grader, String text, List<String> modes)
      throws IOException {
    return selections(namespace, grader, read(text), modes);
  }

  /** As {@link #selections(String, String, String, List)}, from a summary {@link #read} already. */
  public static List<SelectionItem> selections(String namespace, String grader, JsonNode summary,
      List<String> modes) {
    List<SelectionItem> out = new ArrayList<>();
    JsonNode sels = summary.get("selections");
    JsonNode ran = summary.get("modes");
    if ((sels == null || !sels.isObject()) && (ran == null || !ran.isObject())
        && !BASE_FAILED.equals(text(summary, "status"))) {
      return out;
    }
    String task = text(summary, "task_id");
    Parsed parsed = Parsed.of(namespace);
    boolean baseFailed = BASE_FAILED.equals(text(summary, "status"));
    for (String mode : modes) {
      JsonNode s = sels == null ? null : sels.get(mode);
      if (s == null || !s.isObject()) {
        JsonNode m = ran == null ? null : ran.get(mode);
        if (m != null && m.isObject() && m.has("ok") && !flag(m, "ok")) {
          out.add(SelectionItem.modeFailed(namespace, grader, task, mode, k(summary, sels, parsed),
              firstLine(text(m, "error"))));
        } else if (m == null && baseFailed) {
          out.add(SelectionItem.baseFailed(namespace, grader, task, mode, k(summary, sels, parsed),
              errors(summary)));
        }
        continue;
      }
      String label = text(s, "chosen_label");
      String runDir = text(s, "chosen_run_dir");
      String m = s.has("mode") ? text(s, "mode") : s.has("arm") ? text(s, "arm") : mode;
      boolean ok = flag(s, "ok") && !label.isEmpty() && !runDir.isEmpty();
      JsonNode k = s.has("k") ? s.get("k") : summary.get("k");
      String taskId = s.has("task_id") ? text(s, "task_id") : task;
      out.add(new SelectionItem(namespace, grader, taskId, m, whole(k), label, text(s, "chosen_run_id"), runDir,
          flag(s, "chosen_is_base"), ok, harnessDir(parsed, mode, taskId, label),
          text(s, "harness_fingerprint"), false));
    }
    return out;
  }

  /** Every recorded base rollout that has a run dir (legacy entries without one are skipped). */
  public static List<SelectionItem> bases(String namespace, String grader, String text) throws IOException {
    return bases(namespace, grader, read(text));
  }

  /** As {@link #bases(String, String, String)}, from a summary {@link #read} already. */
  public static List<SelectionItem> bases(String namespace, String grader, JsonNode summary) {
    List<SelectionItem> out = new ArrayList<>();
    String task = text(summary, "task_id");
    int k = whole(summary.get("k"));
    JsonNode base = summary.get("base");
    if (base == null || !base.isArray()) return out;
    for (JsonNode b : base) {
      if (!b.isObject()) continue;
      String runDir = text(b, "run_dir");
      if (runDir.isEmpty()) continue;
      out.add(new SelectionItem(namespace, grader, task, "base", k, text(b, "label"), text(b, "run_id"), runDir,
          true, true, "", "", false));
    }
    return out;
  }

  /**
   * Where the mode's work folder keeps the chosen label's harness (spec §3.3): {@code <runs>/<the summary namespace in
   * that mode>/<task slug>/harnesses/<label>}; empty when the namespace's name does not spell a namespace.
   */
  private static String harnessDir(Parsed parsed, String mode, String task, String label) {
    if (label.isEmpty() || parsed.ns().isEmpty()) return "";
    return parsed.modeFolder(mode).resolve(Namespace.slug(task)).resolve("harnesses").resolve(label).toString();
  }

  /**
   * A namespace folder's name parsed (empty when the folder has no name or the name does not spell one), with the
   * folders of its modes' work as they are asked for. A shard reads one namespace's summaries one after another, so
   * each thread keeps the namespace it read last: its name is not parsed again, nor its modes' folders made again,
   * for every summary and row.
   */
  private record Parsed(String namespace, Optional<Namespace> ns, Map<String, Path> modeFolders) {
    private static final ThreadLocal<Parsed> LAST = new ThreadLocal<>();

    static Parsed of(String namespace) {
      Parsed p = LAST.get();
      if (p == null || !p.namespace.equals(namespace)) {
        Path name = Paths.get(namespace).getFileName();
        p = new Parsed(namespace, name == null ? Optional.empty() : Namespace.parse(name.toString()), new HashMap<>());
        LAST.set(p);
      }
      return p;
    }

    /** {@code <runs>/<the namespace in that mode>}; only for a namespace that parsed. */
    Path modeFolder(String mode) {
      return modeFolders.computeIfAbsent(mode,
          m -> Paths.get(namespace).getParent().resolve(ns.get().withMode(m).toString()));
    }
  }

  /**
   * The summary, once its shape is checked: a summary of the wrong shape is unreadable, never skipped. The check
   * makes every field read here a string or null (a flag a boolean, k a whole number), so they are read off the tree.
   */
  public static JsonNode read(String text) throws IOException {
    JsonNode root = Json.readTree(text);
    FileShapes.summary(root);
    return root;
  }

  /** A text field; "" when missing or null. */
  private static String text(JsonNode parent, String key) {
    JsonNode n = parent.get(key);
    return n == null || n.isNull() ? "" : n.asText();
  }

  /** The status of a task none of whose base rollouts produced anything, so that no mode ran (spec §2.11). */
  static final String BASE_FAILED = "base-failed";

  /** A summary's {@code errors}, joined. */
  private static String errors(JsonNode summary) {
    JsonNode e = summary.get("errors");
    if (e == null || !e.isArray()) return "";
    List<String> out = new ArrayList<>();
    for (JsonNode x : e) out.add(firstLine(x.asText("")));
    return String.join("; ", out);
  }

  /** The first line of an error (a mode's error may carry a trace after it). */
  private static String firstLine(String error) {
    int nl = error.indexOf('\n');
    return (nl < 0 ? error : error.substring(0, nl)).strip();
  }

  private static boolean flag(JsonNode parent, String key) {
    JsonNode n = parent.get(key);
    return n != null && n.isBoolean() && n.booleanValue();
  }

  /**
   * The k of a summary's task for a row without a selection of its own: the summary's, else a selection's (the shape
   * allows k on the selections alone), else the namespace name's; a row is never written with k 0, which no reader
   * takes (dogAL F2). 0 only when none of them says.
   */
  private static int k(JsonNode summary, JsonNode sels, Parsed parsed) {
    int k = whole(summary.get("k"));
    if (k >= 1) return k;
    if (sels != null && sels.isObject()) {
      for (JsonNode s : sels) {
        if (s.isObject() && whole(s.get("k")) >= 1) return whole(s.get("k"));
      }
    }
    return parsed.ns().map(Namespace::k).orElse(0);
  }

  private static int whole(JsonNode n) {
    return n != null && n.isNumber() ? n.intValue() : 0;
  }
}
