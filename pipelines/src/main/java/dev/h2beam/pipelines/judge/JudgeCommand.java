package dev.h2beam.pipelines.judge;

import dev.h2beam.adapters.exec.Shell;
import dev.h2beam.adapters.files.AtomicFiles;
import dev.h2beam.adapters.files.Json;
import dev.h2beam.adapters.files.Scratch;
import dev.h2beam.adapters.model.Namespace;
import dev.h2beam.pipelines.BeamRegistry;
import dev.h2beam.pipelines.Command;
import dev.h2beam.pipelines.DirectThreads;
import dev.h2beam.pipelines.Flags;
import dev.h2beam.pipelines.Launcher;
import dev.h2beam.pipelines.FolderFlags;
import dev.h2beam.pipelines.FolderGlob;
import dev.h2beam.pipelines.LazyOptions;
import dev.h2beam.pipelines.OptionArgs;
import dev.h2beam.pipelines.UsageError;
import dev.h2beam.pipelines.report.ReplicateSets;
import dev.h2beam.pipelines.sweep.FlinkCluster;
import dev.h2beam.pipelines.sweep.JobWatch;
import dev.h2beam.pipelines.sweep.Sweep;
import dev.h2beam.pipelines.sweep.WriterLocks;
import dev.h2beam.transforms.summary.SummaryFile;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.PipelineResult;
import org.apache.beam.sdk.options.PipelineOptions;

/**
 * {@code h2beam judge}: scores the output each selection chose, for one namespace or a whole batch of them, after
 * the sweep. A failure is an ungraded row with a reason, never a zero. Exit 0 only when every row judged in this run
 * is graded; 2 otherwise; 1 on bad options.
 */
public final class JudgeCommand implements Command {
  @Override public String name() {
    return "judge";
  }

  @Override public String summary() {
    return "score the chosen outputs of one or many finished namespaces into judged.json (failures are not zeros)";
  }

  @Override public String exitCodes() {
    return "2 rows not graded, a summary unreadable, a task config.json lists with no summary, a namespace skipped or"
        + " with nothing to judge (its line says which)";
  }

  @Override public Class<? extends PipelineOptions> options() {
    return JudgeOptions.class;
  }

  @Override public int run(String[] args) throws Exception {
    // a judge always builds a pipeline: Beam's registry is built while the plan reads the namespaces and takes their
    // locks (the options read without it where the command line is plain, as the sweep reads its own)
    BeamRegistry.ahead();
    JudgeOptions o = OptionArgs.parseLazily(name(), args, JudgeOptions.class);
    return run(o, System.out, true, OptionArgs.whereFlags(args));
  }

  /** Runs the judge with parsed options; prints one line per namespace to {@code out}, then the report to run next. */
  public static int run(JudgeOptions o, PrintStream out) throws Exception {
    return run(o, out, true);
  }

  /**
   * The same; {@code printNext} false for a command that reports right after the judge (the demo), where a line
   * telling the user to run the report would be wrong.
   */
  public static int run(JudgeOptions o, PrintStream out, boolean printNext) throws Exception {
    return run(o, out, printNext, "");
  }

  /** The same, the report to run next given {@code where} ({@link OptionArgs#whereFlags}), where the judge ran. */
  private static int run(JudgeOptions o, PrintStream out, boolean printNext, String where) throws Exception {
    Plan plan = plan(o, out);
    if (plan.graders.isEmpty()) throw new UsageError("nothing to judge: every namespace was skipped");
    List<Path> namespaces = new ArrayList<>();
    for (String ns : plan.graders.keySet()) {
      WriterLocks.refuseIfSwept(Paths.get(ns), o.getLockWaitSeconds());
      namespaces.add(Paths.get(ns));
    }
    try (WriterLocks locks = WriterLocks.of(namespaces, "judge", o.getLockWaitSeconds())) {
      // what the wait may have changed: a sweep that began during it, another judge's grades. The judge's identity
      // is written only now, under the locks, so a judge that was refused or waited wrote nothing before (dogU)
      for (Path ns : namespaces) WriterLocks.refuseIfSwept(ns);
      recordIdentities(plan);
      return runLocked(o, out, plan, printNext ? where : null);
    }
  }

  /**
   * Records each namespace's judge in its config.json, under the namespace's lock, after checking again that no other
   * judge's grades are there: another judge may have finished while this one waited for the lock.
   */
  static void recordIdentities(Plan plan) {
    List<String> refused = new ArrayList<>();
    Map<String, JudgeIdentity.Recorded> records = new LinkedHashMap<>();
    for (Map.Entry<String, String> e : plan.identities().entrySet()) {
      Path ns = Paths.get(e.getKey());
      try {
        JudgeIdentity.Recorded recorded = JudgeIdentity.read(ns);
        JudgeIdentity.refusal(ns, recorded, e.getValue()).ifPresent(refused::add);
        records.put(e.getKey(), recorded);
      } catch (IOException x) {
        throw new UsageError(x.getMessage() + "; move it aside or repair it");
      }
    }
    if (!refused.isEmpty()) throw new UsageError(DIFFERENT_JUDGE + String.join("; ", refused) + MOVE_ASIDE);
    for (Map.Entry<String, String> e : plan.identities().entrySet()) {
      Path ns = Paths.get(e.getKey());
      try {
        JudgeIdentity.record(ns, records.get(e.getKey()), e.getValue());
      } catch (IOException x) {
        throw new UsageError(JudgedFile.cannotWrite(records.get(e.getKey()).file(ns), x));
      }
    }
  }

  private static final String DIFFERENT_JUDGE = "judging with a different judge is refused, so one judged.json never"
      + " mixes two instruments: ";
  private static final String MOVE_ASIDE = ". To grade with the new judge, move those grades aside (or judge a copy"
      + " of the namespace without them); nothing was written";

  /** Judges under the namespaces' locks; then prints the report to run next given {@code where}, unless null. */
  private static int runLocked(JudgeOptions o, PrintStream out, Plan plan, String where) throws Exception {
    // the locks are ours: what a killed judge left in the namespaces' scratch folders is nobody's now
    for (String ns : plan.graders.keySet()) Scratch.clean(Paths.get(ns));
    removeHalfWritten(plan.graders.keySet());
    Path results = Scratch.newDir(Scratch.of(Paths.get(plan.graders.firstKey())), "h2beam-judge-");
    try {
      int shards = shards(o, plan);
      // a shard per bundle: threads beyond the shards would only spin the DirectRunner's monitor
      DirectThreads.fit(o, 1, shards);
      JudgePipeline.Config c = new JudgePipeline.Config(plan.graders, plan.settings, Flags.modes(o.getModes()),
          o.getBases(), o.getGraderConcurrency(), o.getGraderTimeoutSeconds(), shards, results.toString(),
          plan.swept, o.getJudgeRepeats());
      PipelineResult.State state =
          JobWatch.runToEnd(JudgePipeline.build(Pipeline.create(LazyOptions.beam(o)), c)).waitUntilFinish();
      if (state != PipelineResult.State.DONE) throw new IllegalStateException("the judge pipeline ended " + state);
      List<String> modes = Flags.modes(o.getModes());
      Map<String, java.util.Set<String>> found = new TreeMap<>();
      List<String> why = report(plan, results, o.getBases(), modes, found, out);
      if (plan.skipped > 0) why.add(plan.skipped + " namespace(s) skipped");
      if (why.isEmpty()) {
        if (where != null && !o.getBases()) {
          java.util.Set<String> all = new TreeSet<>();
          found.values().forEach(all::addAll);
          next(plan.graders().keySet(), judgedModes(modes, all, out), found, where, out);
        }
        return 0;
      }
      out.println("exit 2: " + String.join("; ", why) + " (see above)");
      return 2;
    } finally {
      Scratch.delete(results);
      for (String ns : plan.graders.keySet()) Scratch.clean(Paths.get(ns));
    }
  }

  /**
   * The grader setting naming how many worker processes the job runs on, when more than one: a grader that calls a
   * model endpoint gives each worker its share of the endpoint's limits ({@link
   * dev.h2beam.adapters.config.RunConfig#shareAmong}), so the job as a whole keeps them.
   */
  static final String WORKERS = "workers";

  /** Tasks per shard when {@code --judgeShards} is not given and the judge runs on the DirectRunner. */
  static final int TASKS_PER_SHARD = 256;

  /** The most shards an unset {@code --judgeShards} gives. */
  static final int MAX_SHARDS = 16;

  /**
   * The shards to grade in: {@code --judgeShards} when given; else {@link #MAX_SHARDS} on a cluster, where shards
   * spread the grading over workers; else, on the DirectRunner, one per {@link #TASKS_PER_SHARD} task folders of the
   * namespaces (counted, not read). On one machine a shard gains nothing for a slow grader (a shard submits all its
   * calls at once, up to {@code --graderConcurrency}) and only threads for parsing: the demo's four rows in four
   * shards took 2.7 s against 2.1 s in one, the runner's spare threads spinning its monitor. Counting stops at the
   * cap's worth of folders: the 100 x 500 tree's 100 listings were 56 ms of the main thread before its pipeline.
   */
  static int shards(JudgeOptions o, Plan plan) throws IOException {
    if (o.getJudgeShards() != null) return o.getJudgeShards();
    if (!DirectThreads.isDirect(o)) return MAX_SHARDS;
    long tasks = 0;
    long enough = (long) MAX_SHARDS * TASKS_PER_SHARD;
    for (String ns : plan.graders.keySet()) {
      if (tasks >= enough) break;
      // names only, no path made per task: a namespace may hold thousands
      String[] names = new java.io.File(ns).list();
      if (names == null) throw new IOException("cannot list " + ns);
      tasks += names.length;
    }
    return (int) Math.max(1, Math.min(MAX_SHARDS, (tasks + TASKS_PER_SHARD - 1) / TASKS_PER_SHARD));
  }

  /**
   * @param swept the namespaces whose config.json says h2beam swept them ({@code bench_provider})
   * @param identities each judged namespace's grader identity, recorded once its lock is held ({@link
   *     #recordIdentities})
   */
  record Plan(TreeMap<String, String> graders, Map<String, String> settings, int skipped, List<String> swept,
      Map<String, String> identities) {}

  static Plan plan(JudgeOptions o, PrintStream out) throws IOException {
    if (o.getNamespaces() == null || o.getNamespaces().isBlank()) {
      throw new UsageError("--namespaces is required: a comma list of namespace folders or globs");
    }
    if (o.getGraderConcurrency() < 1) throw new UsageError("--graderConcurrency must be at least 1");
    if (o.getGraderTimeoutSeconds() < 1) throw new UsageError("--graderTimeoutSeconds must be at least 1");
    if (o.getJudgeShards() != null && o.getJudgeShards() < 1) {
      throw new UsageError("--judgeShards must be at least 1");
    }
    if (o.getJudgeRepeats() < 1 || o.getJudgeRepeats() > 20) {
      throw new UsageError("--judgeRepeats=" + o.getJudgeRepeats() + " must be from 1 to 20");
    }
    Flags.modes(o.getModes());
    Map<String, String> settings = new TreeMap<>();
    if (!o.getGraderCommand().isBlank()) settings.put("command", o.getGraderCommand());
    settings.put("timeoutSeconds", String.valueOf(o.getGraderTimeoutSeconds()));
    if (o.getConfig() != null && !o.getConfig().isBlank()) settings.put("config", o.getConfig());
    if (o.getBenchRoot() != null && !o.getBenchRoot().isBlank()) settings.put("benchRoot", o.getBenchRoot());
    Flags.settings("graderSettings", o.getGraderSettings(), Map.of("command", "--graderCommand",
        "timeoutSeconds", "--graderTimeoutSeconds", "config", "--config", "benchRoot", "--benchRoot",
        WORKERS, "the runner (the TaskManagers its JobManager reports)"), settings);
    // a grader that calls a model divides the endpoint's limits among the job's worker processes, as the sweep does
    int workers = Sweep.runsLocally(o) ? 1 : FlinkCluster.shape(o).workers();
    if (workers > 1) settings.put(WORKERS, String.valueOf(workers));
    TreeMap<String, String> graders = new TreeMap<>();
    List<String> refused = new ArrayList<>();
    Map<String, String> identities = new LinkedHashMap<>();
    List<String> swept = new ArrayList<>();
    int skipped = 0;
    FolderFlags.entries(o, "--namespaces", o.getNamespaces(), "runs/demo/runs/demo-oc-agg2");
    FolderFlags.read(o, "--benchRoot", o.getBenchRoot(), "examples/folder-bench");
    if (!o.getGrader().isBlank()) {
      try {
        GraderProvider.named(o.getGrader());
      } catch (IllegalArgumentException e) {
        throw new UsageError(e.getMessage());
      }
    }
    Map<Path, String> names = new LinkedHashMap<>();
    List<String> notYet = new ArrayList<>();
    List<Path> judgeable = judgeable(expand(o.getNamespaces()), o.getLockWaitSeconds(), notYet);
    // a namespace with nothing to judge yet (its sweep has written no summary) is skipped, said, when others remain:
    // a cron job's glob over a runs tree judges the finished ones; alone, it is the refusal
    if (judgeable.isEmpty()) throw new UsageError(String.join("\n", notYet));
    for (String why : notYet) out.println(why.replace("; nothing was written", "; skipped"));
    skipped += notYet.size();
    for (Path ns : judgeable) {
      String name = o.getGrader().isBlank() ? defaultGrader(ns, settings) : o.getGrader();
      // a --grader given was checked above; a default is named with where it came from, never as a flag
      if (!GraderProvider.all().containsKey(name)) throw new UsageError(unknownDefault(ns, name, settings));
      names.put(ns, name);
    }
    refuseUngrantedEgress(names, settings);
    for (Map.Entry<Path, String> entry : names.entrySet()) {
      Path ns = entry.getKey();
      String name = entry.getValue();
      String graderIdentity;
      // opened here for its identity only: the workers open their own
      try (Grader g = GraderProvider.named(name).open(ns, settings)) {
        graderIdentity = g.identity();
      } catch (IllegalArgumentException e) {
        throw new UsageError(e.getMessage());
      } catch (Exception e) {
        throw new UsageError("cannot open grader " + name + " for " + ns + ": " + e.getMessage());
      }
      JudgeIdentity.Recorded recorded;
      Optional<String> refusal;
      try {
        recorded = JudgeIdentity.read(ns);
        refusal = JudgeIdentity.refusal(ns, recorded, graderIdentity);
      } catch (IOException e) {
        throw new UsageError(e.getMessage() + "; move it aside or repair it");
      }
      if (refusal.isPresent()) {
        refused.add(refusal.get());
        continue;
      }
      if (!o.getBases()) {
        try {
          JudgedFile.check(ns.resolve("judged.json"));
        } catch (IOException e) {
          out.println(ns.getFileName() + ": " + e.getMessage() + "; move it aside to rebuild it; this namespace is"
              + " skipped and the file left untouched");
          skipped++;
          continue;
        }
      }
      graders.put(ns.toString(), name);
      identities.put(ns.toString(), graderIdentity);
      if (recorded.swept()) swept.add(ns.toString());
    }
    // refused here already, before any lock is waited for; checked again and recorded under the locks
    if (!refused.isEmpty()) throw new UsageError(DIFFERENT_JUDGE + String.join("; ", refused) + MOVE_ASIDE);
    return new Plan(graders, settings, skipped, swept, identities);
  }

  /**
   * Refuses the run, before any grader is opened or anything sent or written, when a namespace's grader would send
   * references to a model without the configuration's matching grant, or the configuration grants egress for a
   * benchmark judged here whose grader sends none ({@link EgressGrants}).
   */
  static void refuseUngrantedEgress(Map<Path, String> graders, Map<String, String> settings) {
    List<EgressGrants.Judged> judged = new ArrayList<>();
    for (Map.Entry<Path, String> e : graders.entrySet()) {
      Path ns = e.getKey();
      String bench = benchOf(ns);
      try {
        judged.add(new EgressGrants.Judged(ns.toString(), bench, e.getValue(),
            GraderProvider.named(e.getValue()).referenceEgress(ns, bench, settings)));
      } catch (IllegalArgumentException x) {
        throw new UsageError(x.getMessage());
      } catch (Exception x) {
        throw new UsageError("cannot ask grader " + e.getValue() + " what it sends for " + ns + ": " + x.getMessage());
      }
    }
    List<String> problems;
    try {
      problems = EgressGrants.problems(EgressGrants.config(settings), "--config=" + settings.get("config"), judged);
    } catch (IllegalArgumentException x) {
      throw new UsageError(x.getMessage());
    }
    if (!problems.isEmpty()) {
      throw new UsageError("reference egress refused; nothing was sent and nothing written:\n  "
          + String.join("\n  ", problems));
    }
  }

  /**
   * Prints the report command to run next, as the sweep prints the judge's: one per runs root, benchmark and
   * substrate, seeded namespaces apart from unseeded ones, since a report covers one such cell and refuses two runs
   * roots' namespaces of one name, and one per set of replicates in it ({@link ReplicateSets}); with the
   * judge's {@code --modes} when they are not the default the report shares, and the runner's options the judge was
   * given ({@code where}).
   * A cell of more than {@value #LISTED} namespaces is named by a quoted glob where one names exactly them
   * ({@link #glob}), so that re-judging a hundred namespaces suggests a line to read, not a hundred paths. When the
   * gated mode was judged in several runs roots' namespaces of the same names (methods swept alike), the reports
   * that compare the first root's method with each other's ({@code --versus}) are suggested too, over the names
   * both sides judged.
   */
  static void next(Iterable<String> judged, List<String> modes, Map<String, java.util.Set<String>> found, String where,
      PrintStream out) {
    Map<String, List<String>> byCell = new TreeMap<>();
    for (String ns : judged) {
      Namespace n = Namespace.parse(Paths.get(ns).getFileName().toString()).orElseThrow();
      // seeded and unseeded runs apart: a seed set and a run without one are seldom one experiment's replicates,
      // and their report was refused as not replicates when their task sets differed (dogAG A7)
      byCell.computeIfAbsent(Paths.get(ns).getParent() + "\u0000" + n.benchmark() + "-" + n.substrate()
          + (n.seed() == null ? "" : "\u0000seeded"), c -> new ArrayList<>()).add(ns);
    }
    String modesFlag = Flags.modesFlag(modes, JudgeOptions.DEFAULT_MODES); // the report's default is the judge's
    // which namespaces hold judged gated rows, as the judge's writing steps recorded them
    java.util.function.Predicate<String> gated = ns -> found.getOrDefault(ns, java.util.Set.of()).contains("gat");
    List<String> blind = modes.stream().filter(m -> !m.equals("gat")).toList();
    // the sets of each benchmark and substrate (seeded or not) across runs roots, for the methods' report below
    Map<String, List<List<String>>> acrossRoots = new TreeMap<>();
    for (Map.Entry<String, List<String>> cell : byCell.entrySet()) {
      // and within a cell, one report per set of replicates: two seed sets of other tasks or settings would be
      // refused as one report's (dogAG A7)
      for (List<String> set : ReplicateSets.of(cell.getValue())) {
        // a set none of whose namespaces holds gated rows is not asked for them (the report would warn; dogAI F3)
        boolean noGated = modes.contains("gat") && !blind.isEmpty() && set.stream().noneMatch(gated);
        out.println("next:   " + Launcher.command() + " report --namespaces=" + named(set)
            + (noGated ? Flags.modesFlag(blind, JudgeOptions.DEFAULT_MODES) : modesFlag) + where);
        acrossRoots.computeIfAbsent(cell.getKey().substring(cell.getKey().indexOf('\u0000')), c -> new ArrayList<>())
            .add(set);
      }
    }
    // runs roots whose gated modes were judged on namespaces of the same names: the reports that compare their
    // methods, the first root's against each other's, over the names both judged (dogAI F3, F5)
    if (!modes.contains("gat")) return;
    for (List<List<String>> sets : acrossRoots.values()) {
      List<String> base = null;
      for (List<String> set : sets) {
        List<String> withGated = set.stream().filter(gated).toList();
        if (withGated.isEmpty()) continue;
        if (base == null) {
          base = withGated;
          continue;
        }
        TreeSet<String> shared = new TreeSet<>(names(base));
        shared.retainAll(names(withGated));
        if (shared.isEmpty()) continue;
        TreeSet<String> alone = new TreeSet<>(names(base));
        alone.addAll(names(withGated));
        alone.removeAll(shared);
        out.println("next:   " + Launcher.command() + " report --namespaces=" + named(only(base, shared)) + " --versus="
            + named(only(withGated, shared)) + modesFlag + where + "   # the two runs roots' gated methods, paired"
            + " (README: report --versus)" + (alone.isEmpty() ? "" : "; no partner, left out: "
            + String.join(", ", alone)));
      }
    }
  }

  /** The namespaces of {@code set} whose names are among {@code names}. */
  private static List<String> only(List<String> set, java.util.Set<String> names) {
    return set.stream().filter(ns -> names.contains(Paths.get(ns).getFileName().toString())).toList();
  }

  /** Namespaces as a report's flag names them: a glob naming exactly them past {@value #LISTED}, else a list. */
  private static String named(List<String> set) {
    String glob = set.size() > LISTED ? glob(set) : null;
    // a glob is quoted so the shell leaves it to h2beam; any path so that it pastes whole
    return Shell.word(glob != null ? glob : String.join(",", set));
  }

  private static List<String> names(List<String> set) {
    return set.stream().map(ns -> Paths.get(ns).getFileName().toString()).toList();
  }

  /**
   * The modes of {@code modes} that some namespace's judged.json now holds rows of ({@code found}, from the writing
   * steps' records), in their order; each other one is said, so that the report to run next names only modes that
   * ran (a report asked for a gated mode no namespace ran compared nothing with it; dogAG A3). All of {@code modes}
   * when none was found.
   */
  static List<String> judgedModes(List<String> modes, java.util.Set<String> found, PrintStream out) {
    List<String> kept = modes.stream().filter(found::contains).toList();
    if (kept.isEmpty()) return modes;
    for (String m : modes) {
      if (!found.contains(m)) {
        out.println("note:   no namespace judged here records a " + Namespace.modeName(m) + " run; left out of the"
            + " report below");
      }
    }
    return kept;
  }

  /** Up to this many namespaces, the report to run next lists them. */
  static final int LISTED = 3;

  /** What a suggested glob cannot hold: glob characters of its own, a quote, a backslash, the list's comma. */
  private static final Pattern UNGLOBBABLE = Pattern.compile("[*?\\[\\]{}',\\\\]");

  /**
   * A glob that names exactly {@code namespaces} (absolute folders), as {@link #expand} reads it now: their shared
   * folder and the longest start their names share, then {@code *}. Null when there is none: folders in different
   * places, a glob that also matches another folder, or a path that holds what {@link #UNGLOBBABLE} names.
   */
  static String glob(List<String> namespaces) {
    Path parent = Paths.get(namespaces.get(0)).getParent();
    String prefix = null;
    for (String ns : namespaces) {
      Path p = Paths.get(ns);
      if (parent == null || !parent.equals(p.getParent())) return null;
      String name = p.getFileName().toString();
      prefix = prefix == null ? name : commonStart(prefix, name);
    }
    if (UNGLOBBABLE.matcher(parent.toString()).find() || UNGLOBBABLE.matcher(prefix).find()) return null;
    String glob = parent.resolve(prefix + "*").toString();
    try {
      List<String> matched = new ArrayList<>();
      for (Path p : expand(glob)) matched.add(p.toString());
      return new TreeSet<>(matched).equals(new TreeSet<>(namespaces)) ? glob : null;
    } catch (IOException | UsageError e) {
      return null;
    }
  }

  private static String commonStart(String a, String b) {
    int i = 0;
    while (i < a.length() && i < b.length() && a.charAt(i) == b.charAt(i)) i++;
    return a.substring(0, i);
  }

  /**
   * The judge model's spend for a namespace's rows of this run ({@link NamespaceWrite#judgeSpend}), as a line: what
   * the calls that report their cost cost, and how many rows had calls whose cost is not known.
   */
  static String judgeSpend(Map<String, Object> r) {
    long priced = ((Number) r.get("judge_usd_rows")).longValue();
    long unknown = ((Number) r.get("judge_usd_unknown_rows")).longValue();
    return String.format(java.util.Locale.ROOT, "the judge model this run: $%.4f for %d row(s)%s",
        ((Number) r.get("judge_usd")).doubleValue(), priced, unknown == 0 ? "" : "; " + unknown + " row(s) had"
            + " calls whose cost is not known here (not counted, not zero)");
  }

  /**
   * Prints each namespace's outcome; returns why the run is not a full success, empty when it is. Puts in {@code
   * found} the modes each namespace's judged.json now holds rows of, from the writing steps' records.
   */
  static List<String> report(Plan plan, Path results, boolean bases, List<String> modes,
      Map<String, java.util.Set<String>> found, PrintStream out) throws IOException {
    Map<String, Map<String, Object>> byNs = new TreeMap<>();
    try (Stream<Path> s = Files.list(results)) {
      for (Path p : s.toList()) {
        Map<String, Object> r = Json.readMap(p);
        byNs.put(String.valueOf(r.get("namespace")), r);
      }
    }
    long kept = byNs.values().stream().mapToLong(r -> ((Number) r.getOrDefault("kept_served", 0)).longValue()).sum();
    if (kept > 0) {
      System.err.println("judge: " + kept + " grade(s) kept from an earlier judge that stopped, served without calling"
          + " the grader");
    }
    List<String> why = new ArrayList<>();
    int newRows = 0;
    int notGraded = 0;
    int unreadableCount = 0;
    int missingCount = 0;
    int nothing = 0;
    // a namespace is named by its folder's name, or by its whole path where two runs roots hold that name
    Map<String, Long> named = new TreeMap<>();
    for (String ns : plan.graders().keySet()) named.merge(Paths.get(ns).getFileName().toString(), 1L, Long::sum);
    for (String ns : plan.graders().keySet()) {
      Map<String, Object> r = byNs.get(ns);
      String name = Paths.get(ns).getFileName().toString();
      String label = named.get(name) > 1 ? ns : name;
      if (r == null) {
        long summaries = countSummaries(Paths.get(ns));
        TreeSet<String> recorded = bases ? new TreeSet<>() : selectedModes(Paths.get(ns));
        if (recorded.isEmpty()) {
          out.println(label + ": nothing to judge: its " + summaries + " summary.json file(s) record no "
              + (bases ? "base rollout" : "selection") + " (did every task fail before selection? see their errors)");
        } else {
          // the tasks did select, in modes this run was not asked to judge
          String names = String.join(",", Namespace.MODES.stream().filter(recorded::contains)
              .map(Namespace::modeName).toList());
          out.println(label + ": nothing to judge in modes " + String.join(",", modes.stream()
              .map(Namespace::modeName).toList()) + ": its " + summaries + " summary.json file(s) record selections"
              + " for " + names + " only; pass --modes=" + names);
        }
        nothing++;
        continue;
      }
      int fresh = ((Number) r.get("new_rows")).intValue();
      newRows += fresh;
      notGraded += fresh - ((Number) r.get("new_graded")).intValue();
      @SuppressWarnings("unchecked")
      List<Object> unreadable = (List<Object>) r.get("unreadable");
      if (r.containsKey("error")) {
        out.println(label + ": " + r.get("error"));
        why.add(label + "'s " + (bases ? JudgedFile.BASES_FILE : "judged.json") + " was not written");
      } else if (bases) {
        out.println(label + ": wrote " + r.get("wrote") + ": " + r.get("rows") + " row(s), " + r.get("graded")
            + " graded");
      } else {
        long rows = ((Number) r.get("rows")).longValue();
        long graded = ((Number) r.get("graded")).longValue();
        for (Object m : (List<?>) r.getOrDefault("modes", List.of())) {
          found.computeIfAbsent(ns, x -> new TreeSet<>()).add(String.valueOf(m));
        }
        out.println(label + ": judged.json: " + rows + " row(s), " + graded + " graded, " + (rows - graded)
            + " ungraded (judge failure or no pick — NOT zeros)");
      }
      if (r.containsKey("judge_usd")) out.println(label + ": " + judgeSpend(r));
      @SuppressWarnings("unchecked")
      List<Object> failed = (List<Object>) r.getOrDefault("failed", List.of());
      RunFailures.print(label, fresh, failed, bases ? JudgedFile.BASES_FILE : "judged.json", out);
      if (!unreadable.isEmpty()) {
        unreadableCount += unreadable.size();
        out.println(label + ": " + unreadable.size() + " unreadable summary file(s):");
        for (Object u : unreadable) out.println("  " + u);
      }
      @SuppressWarnings("unchecked")
      List<Object> keptRows = (List<Object>) r.getOrDefault("kept_unread", List.of());
      if (!keptRows.isEmpty()) {
        out.println(label + ": judged.json keeps " + keptRows.size() + " row(s) an earlier judge wrote for those tasks,"
            + " not judged again now: " + String.join(", ", keptRows.stream().map(String::valueOf).toList()));
      }
      @SuppressWarnings("unchecked")
      List<Object> missing = (List<Object>) r.getOrDefault("missing", List.of());
      if (!missing.isEmpty()) {
        missingCount += missing.size();
        out.println(label + ": " + missing.size() + " task(s) config.json lists have no summary.json, so no row"
            + " (did their sweep stop before them? run the same sweep command again): "
            + String.join(", ", missing.stream().map(String::valueOf).toList()));
      }
    }
    if (notGraded > 0) why.add(notGraded + " row(s) of this run not graded");
    if (unreadableCount > 0) why.add(unreadableCount + " unreadable summary file(s)");
    if (missingCount > 0) why.add(missingCount + " listed task(s) with no summary.json");
    if (nothing > 0) why.add(nothing + " namespace(s) with nothing to judge");
    if (newRows == 0 && why.isEmpty()) why.add("no row was judged");
    return why;
  }

  /** The modes any readable summary of {@code ns} records a selection for. */
  private static TreeSet<String> selectedModes(Path ns) throws IOException {
    TreeSet<String> modes = new TreeSet<>();
    try (Stream<Path> s = Files.list(ns)) {
      for (Path summary : s.map(d -> d.resolve("summary.json")).filter(Files::isRegularFile).toList()) {
        try {
          Json.readTree(summary).path("selections").fields().forEachRemaining(e -> {
            if (e.getValue().isObject() && Namespace.MODES.contains(e.getKey())) modes.add(e.getKey());
          });
        } catch (IOException e) {
          // the judge names an unreadable summary in its own line; here it only records no mode
        }
      }
    }
    return modes;
  }

  /** The files only the judge writes in a namespace, each by one judge at a time (the namespace's writer lock). */
  static final List<String> OWN_FILES = List.of(JudgedFile.FILE, MetricVector.FILE, JudgedFile.BASES_FILE,
      JudgeIdentity.FILE);

  /**
   * Removes the temp files a judge killed mid-write left beside its own files ({@link AtomicFiles#isLeftover}) and
   * among its kept grades ({@link KeptGrades}): the files themselves still hold their last complete version, and no
   * other writer makes those temps, so under the namespaces' writer locks they are nobody's. A sweep's files
   * (config.json) are left to the sweep.
   */
  private static void removeHalfWritten(Iterable<String> namespaces) throws IOException {
    List<Path> removed = new ArrayList<>();
    for (String ns : namespaces) {
      removed.addAll(AtomicFiles.removeLeftovers(Paths.get(ns), OWN_FILES));
      removed.addAll(KeptGrades.removeLeftovers(ns));
    }
    AtomicFiles.removedMessage(removed, "judge").ifPresent(System.err::println);
  }

  private static long countSummaries(Path ns) throws IOException {
    try (Stream<Path> s = Files.list(ns)) {
      return s.filter(d -> Files.isRegularFile(d.resolve("summary.json"))).count();
    }
  }

  /** The task folders of {@code ns} that hold a mode's part of a summary ({@code summary.<mode>.json}). */
  private static long partedTasks(Path ns) throws IOException {
    try (Stream<Path> s = Files.list(ns)) {
      return s.filter(d -> Namespace.MODES.stream().anyMatch(m -> Files.isRegularFile(SummaryFile.part(
          d.resolve("summary.json"), m)))).count();
    }
  }

  /** Whether the namespace holds a summary at all: the first one found will do (a namespace may hold thousands). */
  private static boolean hasSummary(Path ns) throws IOException {
    try (Stream<Path> s = Files.list(ns)) {
      return s.anyMatch(d -> Files.isRegularFile(d.resolve("summary.json")));
    }
  }

  /**
   * The summary namespaces to judge, checked before anything is written into them: each folder must be named like a
   * namespace and hold at least one {@code <task>/summary.json}. A sequential or gated namespace stands for its
   * parallel sibling, where its summaries and judged rows live (spec §3.2), as in the report.
   */
  static List<Path> judgeable(List<Path> folders, int waitSeconds, List<String> notYet) throws IOException {
    TreeSet<Path> out = new TreeSet<>();
    for (Path dir : folders) {
      Optional<Namespace> ns = Namespace.parse(dir.getFileName() == null ? "" : dir.getFileName().toString());
      if (ns.isEmpty()) {
        throw new UsageError("--namespaces: " + dir + " is not a namespace folder: its name must read"
            + " <bench>-<substrate>-<" + String.join("|", Namespace.MODES) + "><k>[-s<seed>], e.g. demo-oc-agg2; "
            + FolderFlags.insteadOfNamespace(dir) + "; nothing was written");
      }
      Path summary = dir.resolveSibling(ns.get().summary().toString());
      if (!summary.equals(dir) && !Files.isDirectory(summary)) {
        throw new UsageError("--namespaces: " + dir + " is a " + Namespace.modeName(ns.get().mode())
            + " namespace; its summaries and judged.json live in its parallel sibling " + summary + ", which does not"
            + " exist (was part of the runs folder"
            + " moved?); pass the parallel namespace; nothing was written");
      }
      if (!hasSummary(summary)) {
        // a live sweep of it: named (a judge beside it is refused whatever it finds), or waited for
        WriterLocks.refuseIfSwept(summary, waitSeconds);
      }
      if (!hasSummary(summary)) {
        long parted = partedTasks(summary);
        notYet.add("--namespaces: " + summary + " holds no <task>/summary.json, so there is nothing to"
            + " judge there " + (parted == 0 ? "(is this the wrong runs folder?)"
            : "yet: " + parted + " task folder(s) hold the parts one is merged from (summary.<mode>.json, each a mode"
            + " that finished), which the sweep merges as a task ends; its sweep was stopped before that: run the"
            + " same sweep command again (it resumes, running nothing that finished, and merges them)")
            + "; nothing was written");
        continue;
      }
      writable(summary);
      out.add(summary);
    }
    return new ArrayList<>(out);
  }

  /** Proves the judge can write judged.json and config.json into the namespace, before anything is written. */
  private static void writable(Path ns) {
    Path probe = ns.resolve(".h2beam-judge-probe");
    try {
      Files.deleteIfExists(probe);
      Files.createFile(probe);
      Files.delete(probe);
    } catch (IOException e) {
      throw new UsageError("--namespaces: " + JudgedFile.cannotWrite(ns.resolve("judged.json"), e)
          + "; nothing was written");
    }
  }

  /**
   * Namespace folders from a comma list of folders and globs (a glob may use * ? [..] in its last part). A glob skips
   * the folders a runs folder keeps beside its namespaces ({@code _audit}, {@code _sweeps}, {@code _report}: a name
   * that starts with {@code _} is never a namespace), so {@code '<runs>/*'} judges the whole runs folder; a folder
   * named explicitly is checked like any other.
   */
  static List<Path> expand(String spec) throws IOException {
    TreeSet<Path> out = new TreeSet<>();
    for (String raw : spec.split(",")) {
      String entry = raw.strip();
      if (entry.isEmpty()) continue;
      Path p = Paths.get(entry).toAbsolutePath().normalize();
      if (!FolderGlob.isGlob(entry)) {
        if (!Files.isDirectory(p)) throw new UsageError("--namespaces: " + entry + notAFolder(p));
        out.add(p);
        continue;
      }
      // the report's rules (FolderGlob: any part, hidden folders only when asked), and a runs root's own folders
      // (_sweeps, _audit, _library, _report) only when the last part asks for them too
      boolean underscores = p.getFileName().toString().startsWith("_");
      int before = out.size();
      FolderGlob.folders(p).stream().filter(d -> underscores || !d.getFileName().toString().startsWith("_"))
          .forEach(out::add);
      if (out.size() == before) throw new UsageError("--namespaces: " + entry + " matches no folder");
    }
    return new ArrayList<>(out);
  }

  /**
   * Why {@code p}, named as a namespace, is no folder here: it is not one, or this user may not look (a folder of
   * another user's kept to them by a umask of 077 was said to be "not a folder"; dogAB 8).
   */
  static String notAFolder(Path p) {
    try {
      Files.readAttributes(p, java.nio.file.attribute.BasicFileAttributes.class);
      return " is not a folder";
    } catch (java.nio.file.AccessDeniedException e) {
      return " cannot be looked at by this user (a folder on its path denies search permission): ask its owner for"
          + " read and search permission";
    } catch (IOException e) {
      // nothing at that path: most often a namespace its sweep has not made yet (dogAG B3)
      return " does not exist: sweep first (the namespace folder is <runsRoot>/<benchmark>-<substrate>-agg<k>, made"
          + " by ./h2beam sweep), or check the path and its --runsRoot";
    }
  }

  /**
   * The grader a folder benchmark's bench.json names; else the grader named after the benchmark provider the sweep
   * recorded (jobbench, whose namespaces are harness2's {@code jb-...}); else the benchmark the namespace's name
   * records.
   */
  static String defaultGrader(Path ns, Map<String, String> settings) {
    String folder = FolderGrading.defaultGrader(ns, settings);
    if (folder != null) return folder;
    String provider;
    try {
      provider = FolderGrading.recorded(ns, "bench_provider");
    } catch (IOException e) {
      provider = null; // the identity check reports an unreadable config.json
    }
    if ("folder".equals(provider)) {
      // a folder benchmark's grader is its bench.json's: one that cannot be read (a moved or deleted benchmark) is
      // named, never taken for a grader called after the benchmark
      try {
        FolderGrading.of(ns, settings);
      } catch (IOException e) {
        throw new UsageError(ns + " was swept on a folder benchmark whose grader cannot be read: " + e.getMessage());
      }
    }
    return provider != null && GraderProvider.all().containsKey(provider) ? provider : benchOf(ns);
  }

  /**
   * Why a namespace judged without {@code --grader} has no grader: the name the judge fell back to, where that came
   * from (a folder benchmark's bench.json, else the benchmark the namespace's name records), and what to pass.
   */
  static String unknownDefault(Path ns, String name, Map<String, String> settings) {
    boolean fromBench = name.equals(FolderGrading.defaultGrader(ns, settings));
    return ns.getFileName() + ": no --grader was given, and the grader the judge falls back to, '" + name + "' ("
        + (fromBench ? "the grader kind its benchmark's bench.json declares"
            : "the benchmark its name records, which has no grader of its own") + "), is not a known grader; known: "
        + GraderProvider.all().keySet() + ". Pass --grader=NAME (e.g. --grader=command --graderCommand='<command"
        + " printing a score JSON>')" + (fromBench ? "" : ", or --benchRoot=<its folder benchmark> to use the grader"
        + " its bench.json declares");
  }

  /** The benchmark a namespace folder's name records ({@code <bench>-<sub>-<mode><k>[-s<seed>]}). */
  static String benchOf(Path ns) {
    return Namespace.parse(ns.getFileName().toString()).map(Namespace::benchmark).orElseThrow(() -> new UsageError(
        ns + " is not named like a namespace (<bench>-<sub>-<mode><k>); pass --grader"));
  }
}
