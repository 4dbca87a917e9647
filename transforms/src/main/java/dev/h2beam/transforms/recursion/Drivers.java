package dev.h2beam.transforms.recursion;

import dev.h2beam.adapters.model.BenchPrompts;
import dev.h2beam.adapters.model.RunView;
import dev.h2beam.transforms.evidence.PoolItem;
import dev.h2beam.transforms.prompts.Prompts;
import dev.h2beam.transforms.tree.Diversity;
import dev.h2beam.transforms.tree.TreeIO;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The two ways of spending R = 4k rollouts and P = 3k stages on one task (spec §6.4, §6.5). Inside a phase, stages
 * and rollouts run concurrently; the ledger, stage list, pools and decisions are recorded in list order after the
 * phase drains.
 */
public final class Drivers {
  private Drivers() {}

  /** Parallel mode ({@code agg}): 2k proposals from the base, each rolled; k compositions, each rolled. */
  public static ModeResult parallel(TaskScope s, LinkedHashMap<String, String> base, List<RunView> bases)
      throws Exception {
    ModeResult res = start(s, base, bases);
    Path baseDir = s.workDir().resolve("harnesses").resolve("base");
    BenchPrompts bp = s.bench().promptsFor(s.task());
    String surface = s.bench().surface().name();
    int k = s.k();

    List<StageRunner.Request> proposals = new ArrayList<>();
    for (int i = 1; i <= k; i++) {
      for (String dim : List.of("INV", "DOM")) {
        proposals.add(new StageRunner.Request(dim.toLowerCase(Locale.ROOT) + i, dim,
            Prompts.propose(bp, dim, surface, k, i, null), base, bases, baseDir, s.library(), List.of(),
            Map.of()));
      }
    }
    List<Stage> p1 = Phases.map(proposals, s.phaseWidth(), q -> StageRunner.run(s, q));
    for (Stage st : p1) {
      res.add(st);
      res.ledger.session(st.label(), st.usd(), st.cached(), st.attempts(), st.usdKnown(), st.tokens());
    }
    List<RunView> r1 = rollAll(s, res, p1);
    s.faults().crashOnce(s.runsRoot(), s.task(), s.mode());

    List<PoolItem> pool = new ArrayList<>();
    LinkedHashMap<String, String> decisions = new LinkedHashMap<>();
    for (int i = 0; i < p1.size(); i++) {
      Stage st = p1.get(i);
      pool.add(new PoolItem(st.label(), s.workDir().resolve("harnesses").resolve(st.label()), r1.get(i)));
      decisions.put(st.label(), st.decision());
    }
    List<StageRunner.Request> compositions = new ArrayList<>();
    for (int i = 1; i <= k; i++) {
      compositions.add(new StageRunner.Request("agg" + i, "AGG", Prompts.aggregate(bp, surface, k, i), base, bases,
          baseDir, s.library(), pool, decisions));
    }
    List<Stage> p2 = Phases.map(compositions, s.phaseWidth(), q -> StageRunner.run(s, q));
    for (Stage st : p2) {
      res.add(st);
      res.ledger.session(st.label(), st.usd(), st.cached(), st.attempts(), st.usdKnown(), st.tokens());
      res.finals.add(st.label());
    }
    rollAll(s, res, p2);
    Map<String, Map<String, String>> finals = new LinkedHashMap<>();
    for (Stage st : p2) finals.put(st.label(), st.tree());
    res.similarity = Diversity.of(finals);
    finish(s, res);
    return res;
  }

  /** Sequential mode ({@code seq}): k rounds of INV + DOM from the current checkpoint, then a composition. */
  public static ModeResult sequential(TaskScope s, LinkedHashMap<String, String> base, List<RunView> bases)
      throws Exception {
    ModeResult res = start(s, base, bases);
    BenchPrompts bp = s.bench().promptsFor(s.task());
    String surface = s.bench().surface().name();
    int k = s.k();
    LinkedHashMap<String, String> current = base;
    List<PoolItem> history = new ArrayList<>();
    LinkedHashMap<String, String> decisions = new LinkedHashMap<>();
    for (int t = 1; t <= k; t++) {
      String currentLabel = t == 1 ? "base" : "c" + (t - 1);
      Path currentDir = s.workDir().resolve("harnesses").resolve(currentLabel);
      TreeIO.writeHarness(s.bench().surface(), current, currentDir, true);
      Integer round = k > 1 ? t : null;
      List<StageRunner.Request> proposals = new ArrayList<>();
      for (String dim : List.of("INV", "DOM")) {
        proposals.add(new StageRunner.Request(dim.toLowerCase(Locale.ROOT) + t, dim,
            Prompts.propose(bp, dim, surface, k, t, round), current, bases, currentDir, s.library(),
            List.copyOf(history), new LinkedHashMap<>(decisions)));
      }
      List<Stage> ps = Phases.map(proposals, s.phaseWidth(), q -> StageRunner.run(s, q));
      for (Stage st : ps) {
        res.add(st);
        res.ledger.session(st.label(), st.usd(), st.cached(), st.attempts(), st.usdKnown(), st.tokens());
      }
      List<RunView> rs = rollAll(s, res, ps);
      if (t == 1) s.faults().crashOnce(s.runsRoot(), s.task(), s.mode());
      List<PoolItem> roundPool = new ArrayList<>(history);
      for (int i = 0; i < ps.size(); i++) {
        Stage st = ps.get(i);
        roundPool.add(new PoolItem(st.label(), s.workDir().resolve("harnesses").resolve(st.label()), rs.get(i)));
        decisions.put(st.label(), st.decision());
      }
      String job = k == 1 ? Prompts.aggregate(bp, surface, 1, 1) : Prompts.composeRound(bp, surface, t, k);
      Stage c = StageRunner.run(s, new StageRunner.Request("c" + t, "COMPOSE", job, current, bases, currentDir,
          s.library(), roundPool, new LinkedHashMap<>(decisions)));
      res.add(c);
      res.ledger.session(c.label(), c.usd(), c.cached(), c.attempts(), c.usdKnown(), c.tokens());
      RunView rc = rollAll(s, res, List.of(c)).get(0);
      decisions.put(c.label(), c.decision());
      history = new ArrayList<>(roundPool);
      history.add(new PoolItem(c.label(), s.workDir().resolve("harnesses").resolve(c.label()), rc));
      res.finals.add(c.label());
      current = c.tree();
    }
    res.similarity = null;
    finish(s, res);
    return res;
  }

  static ModeResult start(TaskScope s, LinkedHashMap<String, String> base, List<RunView> bases)
      throws Exception {
    ModeResult res = new ModeResult(s.mode(), s.task(), s.k());
    for (RunView b : bases) {
      res.ledger.rollout(b.label(), b.costUsd(), b.costKnown(), b.tokens());
      res.rollouts.put(b.label(), b);
    }
    TreeIO.writeHarness(s.bench().surface(), base, s.workDir().resolve("harnesses").resolve("base"), true);
    return res;
  }

  private static List<RunView> rollAll(TaskScope s, ModeResult res, List<Stage> stages) throws Exception {
    List<RunView> views = Phases.map(stages, s.phaseWidth(), st -> Roller.roll(s, st.label(), st.tree()));
    for (RunView v : views) {
      res.ledger.rollout(v.label(), v.costUsd(), v.costKnown(), v.tokens());
      res.rollouts.put(v.label(), v);
    }
    return views;
  }

  static void finish(TaskScope s, ModeResult res) {
    if (s.faults().has("ledger-duplicate", s.task(), s.mode())) {
      res.ledger.rollout(res.ledger.labels("rollout").get(0), 0.0);
    }
    res.ledger.assertIdentity();
  }
}
