package dev.h2beam.transforms.selection;

import dev.h2beam.adapters.model.RunView;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Takes run folders out of what the blind selector reads (spec §7.2). A rollout's folder is
 * {@code <executions>/<namespace>/<task>/<label>}: the namespace names the mode and the label the candidate, and the
 * executor's working folder, output folder, TMPDIR and HOME all hold it, so a deliverable or a transcript that says
 * where it was written would tell the selector which candidate it reads. Every such path, of any candidate and of
 * any namespace of the task, becomes one placeholder that is the same for every candidate; a text that holds none is
 * returned unchanged, byte for byte, so that its evidence (and the reply cache's key over it) stays what it was.
 */
final class RunPaths {
  private RunPaths() {}

  /** What every run folder becomes: the same for every candidate, so no path tells two of them apart. */
  static final String PLACEHOLDER = "<run folder>";

  /**
   * One path segment (a namespace or a label): it ends on a letter or digit so that a sentence's full stop or a
   * closing quote after a path is kept.
   */
  private static final String SEG = "[A-Za-z0-9._+-]*[A-Za-z0-9_]";

  /** {@code texts} (label to text) with the run folders of {@code candidates} and of their task replaced. */
  static Map<String, String> scrub(Map<String, String> texts, List<RunView> candidates, String task) {
    Pattern p = pattern(candidates, task);
    Map<String, String> out = new LinkedHashMap<>();
    for (Map.Entry<String, String> e : texts.entrySet()) {
      out.put(e.getKey(), p == null ? e.getValue() : p.matcher(e.getValue()).replaceAll(
          Matcher.quoteReplacement(PLACEHOLDER)));
    }
    return out;
  }

  /**
   * One pattern over every form of the candidates' run folders, or null when there is none: for each candidate the
   * folder its rollouts share, with any label after it; when the folder is laid out as {@code <executions>/<ns>/
   * <task>/<label>}, the task's folder under any namespace (the other mode's rollouts of the task too); and the run
   * id {@code <ns>/<task>/<label>} written relative; the executions folder followed by anything a path holds (last:
   * a path the others miss, such as one cut short); the run folder's name under any sibling of the folder that
   * holds it (JobBench keeps a run's trajectory in {@code model_traj/<name>} beside {@code model_output/<name>}), and
   * that name alone when it holds more than the label. Each folder is taken as given, absolute and with symlinks
   * resolved (a runs root under a linked /tmp is printed either way). Longest first, sorted, so that the same
   * candidates always give the same pattern.
   */
  static Pattern pattern(List<RunView> candidates, String task) {
    TreeSet<String> alternatives = new TreeSet<>(Comparator.comparingInt(String::length).reversed()
        .thenComparing(Comparator.naturalOrder()));
    Path taskPath = task.isBlank() ? null : Paths.get(task);
    for (RunView rv : candidates) {
      String id = rv.runId();
      String ownLabel = "/" + task + "/" + rv.label();
      if (!task.isBlank() && id.endsWith(ownLabel) && id.length() > ownLabel.length()) {
        alternatives.add("(?<![A-Za-z0-9._/-])" + Pattern.quote(id.substring(0, id.length() - rv.label().length()
            - 1)) + "(?:/" + SEG + ")?");
      }
      if (rv.runDir().isBlank()) continue;
      Path name = Paths.get(rv.runDir()).getFileName();
      // a folder named by the whole run id (JobBench's <ns>__<task>__<label>) names the mode and the candidate even
      // alone in a sentence; a bare label (c1) is not taken out of prose, where it may mean anything
      if (name != null && !name.toString().equals(rv.label()) && name.toString().contains(rv.label())) {
        alternatives.add("(?<![A-Za-z0-9._/-])" + Pattern.quote(name.toString()) + "(?![A-Za-z0-9_])");
      }
      for (Path dir : forms(Paths.get(rv.runDir()))) {
        Path shared = dir.getParent();
        // a folder this short would hide paths that name no run
        if (shared == null || shared.getNameCount() < 2) continue;
        alternatives.add(Pattern.quote(shared.toString()) + "(?:/" + SEG + ")?");
        // the run's sibling folders of the same name (JobBench's model_traj/<name> beside model_output/<name>)
        Path above = shared.getParent();
        if (above != null && above.getNameCount() >= 2) {
          alternatives.add(Pattern.quote(above.toString()) + "/" + SEG + "/" + Pattern.quote(dir.getFileName()
              .toString()) + "(?![A-Za-z0-9._-])");
        }
        if (taskPath != null && shared.endsWith(taskPath)) {
          Path ns = shared;
          for (int i = 0; i < taskPath.getNameCount(); i++) ns = ns.getParent();
          Path executions = ns == null ? null : ns.getParent();
          if (executions != null && executions.getNameCount() >= 1) {
            alternatives.add(Pattern.quote(executions.toString()) + "/" + SEG + "/" + Pattern.quote(task)
                + "(?:/" + SEG + ")?");
            // and the executions folder with whatever follows it, for a path the others miss: one cut short where a
            // transcript was truncated ("<executions>/blindtwo-oc-se") still names the start of its namespace
            alternatives.add(Pattern.quote(executions.toString()) + "(?:/[A-Za-z0-9._+-]*)*");
          }
        }
      }
    }
    return alternatives.isEmpty() ? null : Pattern.compile(String.join("|", alternatives));
  }

  /** The path as given, absolute and normalized, and with symlinks resolved when it exists: distinct, in order. */
  private static List<Path> forms(Path dir) {
    List<Path> out = new ArrayList<>();
    out.add(dir);
    Path abs = dir.toAbsolutePath().normalize();
    if (!out.contains(abs)) out.add(abs);
    try {
      // the rollout folder itself may be gone (a dead rollout's placeholder); the folder above it is what is shared
      Path parent = abs.getParent();
      if (parent != null && Files.exists(parent)) {
        Path real = parent.toRealPath().resolve(abs.getFileName());
        if (!out.contains(real)) out.add(real);
      }
    } catch (Exception e) {
      // an unreadable path keeps the forms above
    }
    return out;
  }
}
