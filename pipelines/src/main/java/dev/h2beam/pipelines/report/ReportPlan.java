package dev.h2beam.pipelines.report;

import dev.h2beam.pipelines.Flags;
import dev.h2beam.pipelines.FolderFlags;
import dev.h2beam.pipelines.UsageError;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;

/**
 * Turns the report's flags into {@link ReportSettings}, refusing bad input before anything runs with a message that
 * names the flag and the fix.
 */
final class ReportPlan {
  private ReportPlan() {}

  static ReportSettings settings(String namespaces, String modes, String k, String bench, String disclosure,
      double minEffect, String output, Path cwd) {
    return settings(namespaces, modes, k, bench, disclosure, minEffect, null, output, cwd);
  }

  /** The settings with {@code --objectives} (null: the default over {@code minEffect}). */
  static ReportSettings settings(String namespaces, String modes, String k, String bench, String disclosure,
      double minEffect, String objectives, String output, Path cwd) {
    return settings(namespaces, modes, k, bench, disclosure, minEffect, objectives, null, output, cwd);
  }

  /** The settings with {@code --versus} too (null or blank: none). */
  static ReportSettings settings(String namespaces, String modes, String k, String bench, String disclosure,
      double minEffect, String objectives, String versus, String output, Path cwd) {
    if (namespaces == null || namespaces.isBlank()) {
      throw new UsageError("--namespaces is required: a namespace folder (runs/demo-oc-agg2), a comma list of them,"
          + " or a quoted glob ('runs/demo-oc-agg2*' for every seed)");
    }
    List<String> modeTokens = modes(modes);
    List<Integer> ks = ks(k);
    Disclosure d = Disclosure.parse(disclosure);
    if (Double.isNaN(minEffect) || Double.isInfinite(minEffect) || minEffect < 0) {
      throw new UsageError("--minEffect must be a number of percentage points >= 0, got " + minEffect);
    }
    List<Objective> objs = Objective.parse(objectives == null ? Objective.defaults(minEffect) : objectives);
    List<NamespaceRef> refs = Namespaces.resolve(split(namespaces), cwd);
    if (refs.isEmpty()) throw new UsageError("--namespaces named no folder; give at least one namespace or glob");
    TreeSet<String> cells = new TreeSet<>();
    for (NamespaceRef r : refs) cells.add(r.cell());
    if (cells.size() > 1) {
      throw new UsageError("--namespaces span " + cells.size() + " benchmark/substrate cells " + cells
          + "; report one cell at a time (replicates differ only in seed)");
    }
    List<NamespaceRef> against = versus(versus, modeTokens, refs, cwd);
    String wording = bench == null || bench.isBlank() ? refs.get(0).bench() : bench.strip();
    // a methods report by default beside the root's own report, not over it (dogAI F2)
    Path out = output == null || output.isBlank()
        ? Path.of(refs.get(0).dir()).getParent().resolve(against.isEmpty() ? "_report" : "_report-versus-"
            + rootName(against))
        : cwd.resolve(output).toAbsolutePath().normalize();
    // an error names the flag the user gave, or says the folder is the default one
    writable(out, output == null || output.isBlank() ? "the report folder " + out + " (the default --output, beside"
        + " the namespaces)" : "--output=" + out);
    return new ReportSettings(refs, ks, modeTokens, wording, d, minEffect, out.toString(), objs, against);
  }

  /**
   * {@code --versus}: another runs root's namespaces of the same cell, none of them one of {@code --namespaces}, with
   * the gated mode reported ({@link MethodComparison} compares the two sides' gated methods); empty when not given.
   */
  static List<NamespaceRef> versus(String spec, List<String> modes, List<NamespaceRef> refs, Path cwd) {
    if (spec == null || spec.isBlank()) return List.of();
    if (!modes.contains(Report.GATED)) {
      throw new UsageError("--versus compares the gated mode of two runs roots, and --modes leaves gated out: add it"
          + " (--modes=gated, or parallel,sequential,gated)");
    }
    List<NamespaceRef> against = Namespaces.resolve("--versus", split(spec), cwd);
    // by the folders' real paths: a runs root reached through a link is the same root (dogAH F8)
    TreeSet<String> mine = new TreeSet<>();
    for (NamespaceRef r : refs) mine.add(real(r.dir()));
    for (NamespaceRef r : against) {
      if (!r.cell().equals(refs.get(0).cell())) {
        throw new UsageError("--versus: " + r.dir() + " is of cell " + r.cell() + " and --namespaces of "
            + refs.get(0).cell() + "; two methods are compared on one benchmark and substrate");
      }
      if (mine.contains(real(r.dir()))) {
        throw new UsageError("--versus: " + r.dir() + " is one of --namespaces too" + (real(r.dir()).equals(r.dir())
            ? "" : " (it is " + real(r.dir()) + ")") + "; give --versus the namespaces of the other runs root, whose"
            + " gated mode ran the method to compare with");
      }
    }
    return against;
  }

  /**
   * The name a methods report's default folder gives the {@code --versus} runs root: the folder holding its
   * namespaces, or the one above when that is named {@code runs} (a demo's or a benchmark's own), as a file name.
   */
  static String rootName(List<NamespaceRef> against) {
    Path root = Path.of(against.get(0).dir()).getParent();
    if (root.getFileName() != null && root.getFileName().toString().equals("runs") && root.getParent() != null
        && root.getParent().getFileName() != null) {
      root = root.getParent();
    }
    String name = root.getFileName() == null ? "root" : root.getFileName().toString();
    return name.replaceAll("[^A-Za-z0-9._-]", "_");
  }

  /** A folder's real path, links resolved; the path as given when it cannot be resolved. */
  private static String real(String dir) {
    try {
      return Path.of(dir).toRealPath().toString();
    } catch (IOException e) {
      return dir;
    }
  }

  static List<String> modes(String spec) {
    return Flags.modes(spec);
  }

  /** {@code --k}: a comma list of ints >= 1; unset means every k found. */
  static List<Integer> ks(String spec) {
    if (spec == null) return List.of();
    TreeSet<Integer> out = new TreeSet<>();
    for (String part : spec.split(",")) {
      if (part.isBlank()) continue;
      try {
        int k = Integer.parseInt(part.strip());
        if (k < 1) throw new NumberFormatException();
        out.add(k);
      } catch (NumberFormatException e) {
        throw new UsageError("--k takes a comma list of ints >= 1 (e.g. 1,2,3), got '" + spec + "'");
      }
    }
    if (out.isEmpty()) throw new UsageError("--k named no k; give a comma list such as 1,2 or omit it for every k");
    return new ArrayList<>(out);
  }

  static List<String> split(String s) {
    List<String> out = new ArrayList<>();
    if (s == null) return out;
    for (String p : s.split(",")) if (!p.isBlank()) out.add(p.strip());
    return out;
  }

  private static void writable(Path dir, String named) {
    // a file where the folder (or one of its parents) should be: createDirectories would only name its exception
    Path p = FolderFlags.nearestExisting(dir);
    if (p != null && !Files.isDirectory(p)) {
      throw new UsageError(named + (p.equals(dir) ? " is a file" : " lies inside " + p + ", a file")
          + ", not a folder: the report writes report.txt, report.html and report.json into a folder; give a folder's"
          + " path (a missing one is created)");
    }
    try {
      Files.createDirectories(dir);
      Path probe = Files.createTempFile(dir, ".h2beam-probe-", ".tmp");
      Files.delete(probe);
    } catch (IOException | SecurityException e) {
      throw new UsageError(named + " cannot be written (" + e.getClass().getSimpleName() + ": " + e.getMessage()
          + "); choose a folder you can write to with --output");
    }
  }
}
