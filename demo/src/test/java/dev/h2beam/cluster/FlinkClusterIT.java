package dev.h2beam.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.h2beam.adapters.files.ClusterJob;
import dev.h2beam.adapters.files.FilesHolding;
import dev.h2beam.adapters.files.Json;
import dev.h2beam.adapters.files.WriterLock;
import dev.h2beam.adapters.llm.ScriptedModelServer;
import dev.h2beam.demo.DemoRuns;
import dev.h2beam.demo.FlinkDemoTest;
import dev.h2beam.demo.InFlight;
import dev.h2beam.pipelines.folder.SignedSumsModel;
import dev.h2beam.pipelines.sweep.FlinkCluster;
import dev.h2beam.transforms.proposer.Journal;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real multi-process Flink 1.19 session cluster (one JobManager, two TaskManagers of two slots, each its own JVM on
 * loopback, started from Flink's Maven artifacts by scripts/flink-cluster.sh) runs the synthetic benchmark (4 domains
 * x 3 tasks, both modes, k = 2, 20 ms latencies: eight chains on four slots, at most two sessions and two rollouts at
 * once) with its judge and report from the cluster jar, submitted by a client whose classpath is that jar plus the
 * cluster's Flink classes (as {@code flink run} would). The files equal a DirectRunner run's; the chain records show
 * no slot ran more than two chains, and never two at once; the journals of both workers together show never more
 * sessions or rollouts in flight than the job's limits; and a TaskManager killed with SIGKILL mid-sweep costs a
 * restart, never a rollout or session spent twice. The worked example's folder sweep then calls a loopback model from
 * both TaskManagers, which sees the endpoints' {@code max_concurrency}, {@code requests_per_minute} and {@code
 * tokens_per_minute} held for the whole job, also by the calls of real Codex rollouts (through each worker's relay);
 * and a key variable the client has and the TaskManagers lack is refused by the workers, naming it.
 *
 * <p>{@code .ci/run} starts the cluster (with {@value #KEY_VAR} in its environment) and names it in {@value
 * #CLUSTER_ENV} (its folder) and {@value #MASTER_ENV} (its REST endpoint); without them the test starts and stops its
 * own. The tests leave it as they found it: two live TaskManagers.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class FlinkClusterIT {
  static final String CLUSTER_ENV = "H2BEAM_FLINK_CLUSTER";
  static final String MASTER_ENV = "H2BEAM_FLINK_MASTER";
  /** The key variable the test endpoints name; the pom sets it for this JVM, .ci/run for the cluster it starts. */
  static final String KEY_VAR = "H2BEAM_TEST_KEY";
  private static final Path CHECKOUT = Path.of("..").toAbsolutePath().normalize();
  private static final FlinkCluster.Shape SHAPE = new FlinkCluster.Shape(2, 4);
  private static final int LIMIT = 2;
  private static final List<String> JAVA_FLAGS = List.of("--add-opens=java.base/java.lang=ALL-UNNAMED",
      "--add-opens=java.base/java.util=ALL-UNNAMED", "--add-opens=java.base/java.nio=ALL-UNNAMED",
      "--add-opens=java.base/sun.nio.ch=ALL-UNNAMED", "--add-opens=java.base/java.io=ALL-UNNAMED",
      "--add-opens=java.base/java.net=ALL-UNNAMED", "--add-opens=java.base/java.lang.reflect=ALL-UNNAMED");
  private static Path clusterDir;
  @TempDir static Path directRun;
  private static boolean directRunDone;
  private static String master;
  private static boolean ours;

  static Path clusterJar() throws IOException {
    try (Stream<Path> s = Files.list(Path.of("target"))) {
      return s.filter(p -> p.getFileName().toString().endsWith("-cluster.jar")).findFirst()
          .orElseThrow(() -> new AssertionError("no cluster jar under target/: run mvn verify")).toAbsolutePath();
    }
  }

  static String clientClasspath() throws IOException {
    Path flink = CHECKOUT.resolve("flink-cluster/target/flink.classpath");
    assertTrue(Files.isRegularFile(flink), flink + " is missing: the flink-cluster module builds it");
    return clusterJar() + ":" + Files.readString(flink).strip();
  }

  static String script(String... args) throws Exception {
    List<String> cmd = new ArrayList<>(List.of("bash", CHECKOUT.resolve("scripts/flink-cluster.sh").toString()));
    cmd.addAll(List.of(args));
    cmd.add("--dir=" + clusterDir);
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes());
    assertTrue(p.waitFor(300, TimeUnit.SECONDS), "flink-cluster.sh " + args[0] + " did not finish");
    assertEquals(0, p.exitValue(), "flink-cluster.sh " + String.join(" ", args) + ":\n" + out);
    return out;
  }

  @BeforeAll
  static void startCluster() throws Exception {
    String dir = System.getenv(CLUSTER_ENV);
    String given = System.getenv(MASTER_ENV);
    if ((dir == null) != (given == null)) {
      throw new AssertionError("set both " + CLUSTER_ENV + " (the cluster's folder) and " + MASTER_ENV
          + " (host:port of its REST endpoint), or neither to let the test start its own cluster");
    }
    ours = dir == null;
    if (ours) {
      clusterDir = Path.of("target", "flink-cluster-it").toAbsolutePath();
      int port;
      try (ServerSocket s = new ServerSocket(0)) {
        port = s.getLocalPort();
      }
      master = "127.0.0.1:" + port;
      script("start", "--taskmanagers=" + SHAPE.workers(), "--slots=" + SHAPE.slots() / SHAPE.workers(),
          "--port=" + port, "--attempts=4");
    } else {
      clusterDir = Path.of(dir).toAbsolutePath();
      master = given;
    }
    assertEquals(SHAPE, FlinkCluster.overview(master), master + " (" + clusterDir + ") must be two TaskManagers of two"
        + " slots, started with --attempts=4: scripts/flink-cluster.sh start --taskmanagers=2 --slots=2 --attempts=4");
  }

  @AfterAll
  static void stopCluster() throws Exception {
    if (ours) script("stop");
  }

  private static final String NS = "synthetic-oc-agg2";
  private static final int TASKS = 12;

  /** Starts the synthetic bench (sweep, judge, report) in its own JVM with the cluster jar and the runner flags. */
  static Process demo(Path out, String... runner) throws Exception {
    List<String> args = new ArrayList<>(List.of("bench", "--output=" + out, "--k=2", "--domains=4",
        "--tasksPerDomain=3", "--executorLatencyMs=20", "--sessionLatencyMs=20", "--sessionRetryWaitSeconds=0",
        "--sessionLimit=" + LIMIT, "--rolloutLimit=" + LIMIT));
    args.addAll(List.of(runner));
    return client(out, args);
  }

  /** Starts h2beam's command line in its own JVM with the cluster jar, its output in {@code out/console.log}. */
  static Process client(Path out, List<String> args) throws Exception {
    return client(out, args, Map.of());
  }

  /** The same with {@code env} added to the client's environment (not the cluster's). */
  static Process client(Path out, List<String> args, Map<String, String> env) throws Exception {
    // the client's JVM as the launcher starts it; the cluster's own JVMs are scripts/flink-cluster.sh's
    List<String> cmd = DemoRuns.java();
    cmd.add("-Xmx768m");
    cmd.addAll(JAVA_FLAGS);
    cmd.addAll(List.of("-cp", clientClasspath(), "dev.h2beam.pipelines.Main"));
    cmd.addAll(args);
    Files.createDirectories(out);
    ProcessBuilder b = new ProcessBuilder(cmd).redirectErrorStream(true)
        .redirectOutput(out.resolve("console.log").toFile());
    b.environment().putAll(env);
    return b.start();
  }

  static String[] onCluster() throws IOException {
    return new String[] {"--runner=FlinkRunner", "--flinkMaster=" + master, "--parallelism=" + SHAPE.slots(),
        "--filesToStage=" + clusterJar(), "--progressSeconds=2"};
  }

  /** The DirectRunner's run both tests compare with: the same command, so it runs once, for whichever test is first. */
  static synchronized Path direct() throws Exception {
    if (!directRunDone) {
      finish(demo(directRun), directRun);
      directRunDone = true;
    }
    return directRun;
  }

  static void finish(Process p, Path out) throws Exception {
    assertTrue(p.waitFor(900, TimeUnit.SECONDS), "the bench did not finish in 15 minutes");
    assertEquals(0, p.exitValue(), Files.readString(out.resolve("console.log")));
  }

  @Test
  void theClusterRunsSweepJudgeAndReportToTheDirectRunnersFilesWithinTheJobsLimitsAndChainsSpreadOverSlots(
      @TempDir Path cluster) throws Exception {
    finish(demo(cluster, onCluster()), cluster);
    String console = Files.readString(cluster.resolve("console.log"));
    assertTrue(console.contains(NS + ": judged.json: 24 row(s), 24 graded, 0 ungraded"), console);
    assertTrue(console.contains("runner FlinkRunner"), console);
    // the bench measures the workers, from their boards, not only its client
    assertTrue(console.matches("(?s).*  CPU in the sweep +[0-9.]+ s = h2beam \\(JVMs\\) [0-9.]+ \\+ rollout scripts"
        + " [0-9.]*[1-9][0-9.]*; per task [^\n]*; h2beam = [2-9] workers' [0-9.]*[1-9][0-9.]* .*"), console);
    // and the JobManager's CPU beside it, read from its metrics (a real JobManager's always refresh)
    assertTrue(console.matches("(?s).*  JobManager CPU +[0-9.]*[1-9][0-9.]* s in the sweep = [0-9.]+ per task .*"),
        console);
    assertTrue(console.contains("sessions in flight: peak ") && console.contains(" from the journals (192 sessions"
        + " run, 192 expected); the cluster's workers ran them, not this client"), console);
    // the client's live progress (plain lines: the log is not a terminal), read from the workers' boards
    List<String> progress = console.lines().filter(l -> l.startsWith("progress ")).toList();
    assertTrue(progress.size() >= 2, console);
    String last = progress.get(progress.size() - 1);
    assertTrue(last.contains("bases 12/12  agg 12/12 (0 resumed, 0 failed, 0 running)  seq 12/12")
        && last.matches(".*workers [2-9].*"), "every task of both modes, reported by at least two workers: " + last);
    FlinkDemoTest.assertSameFiles(direct(), cluster);
    assertNothingRanTwice(cluster);
    assertWithinLimitsJobWide(cluster);
    assertChainsSpread(cluster.resolve("runs/_audit/" + NS + "/chains"), SHAPE.slots());
  }

  /**
   * Every run id executed to completion once and every session key called once, as many as a clean run of 12 tasks
   * at k = 2. A failed execution (none is expected here: a cancelled one is not journalled) would run again.
   */
  static void assertNothingRanTwice(Path out) throws Exception {
    Path audit = out.resolve("runs/_audit/" + NS);
    List<String> executions = completed(Journal.lines(audit.resolve("executions.jsonl")));
    List<String> sessions = Journal.lines(audit.resolve("sessions.jsonl"));
    assertEquals(TASKS * 7 * 2, executions.size(), "executions");
    assertEquals(TASKS * 2 * (3 * 2 + 2), sessions.size(), "sessions");
    java.util.Set<Object> ids = new java.util.HashSet<>();
    for (String line : executions) assertTrue(ids.add(Json.readMap(line).get("run_id")), "ran twice: " + line);
    java.util.Set<Object> keys = new java.util.HashSet<>();
    for (String line : sessions) {
      Map<String, Object> m = Json.readMap(line);
      assertTrue(keys.add(m.get("label") + "/" + m.get("key")), "ran twice: " + line);
    }
  }

  /**
   * From the journals of every worker process together (at least two wrote each): at no instant were more than
   * {@link #LIMIT} sessions (improver and selector alike, which share the limit), nor more than {@link #LIMIT}
   * rollouts, in flight; and the limit was reached, so the bound was tested, not idle. Each worker holds a share of
   * one, so the job reached it only with both busy at once.
   */
  static void assertWithinLimitsJobWide(Path out) throws Exception {
    Path audit = out.resolve("runs/_audit/" + NS);
    List<String> sessions = new ArrayList<>(Journal.lines(audit.resolve("sessions.jsonl")));
    sessions.addAll(Journal.lines(audit.resolve("selector/sessions.jsonl")));
    for (String name : List.of("sessions", "executions")) {
      try (Stream<Path> files = Files.list(audit)) {
        List<Path> writers = files.filter(f -> f.getFileName().toString().startsWith(name + ".")).toList();
        assertTrue(writers.size() >= 2, "each worker process writes its own " + name + " journal: " + writers);
      }
    }
    for (Map.Entry<String, List<String>> journal : Map.of("sessions", sessions, "rollouts",
        Journal.lines(audit.resolve("executions.jsonl"))).entrySet()) {
      List<Instant[]> held = InFlight.held(journal.getValue(), Instant.MIN);
      assertTrue(held.size() >= journal.getValue().size(), "every record says when it held its slot");
      assertEquals(LIMIT, InFlight.peak(held), journal.getKey() + " in flight at once, job-wide, at the busiest"
          + " instant (" + held.size() + " intervals)");
    }
  }

  /**
   * From the chain records alone: every chain ran in a TaskManager (not the client), on a slot of P, no slot ran more
   * than ⌈C/P⌉ chains, chains that shared a slot ran one after the other, and never more than P ran at once.
   */
  static void assertChainsSpread(Path records, int slots) throws Exception {
    Pattern slot = Pattern.compile("\\((\\d+)/" + slots + "\\)");
    List<Map<String, Object>> chains = new ArrayList<>();
    try (Stream<Path> s = Files.list(records)) {
      for (Path r : s.sorted().toList()) chains.add(Json.readMap(r));
    }
    assertTrue(chains.size() >= 2, "chain records: " + chains);
    int ceiling = (chains.size() + slots - 1) / slots;
    Map<String, List<Map<String, Object>>> bySlot = new java.util.TreeMap<>();
    List<Instant[]> ran = new ArrayList<>();
    for (Map<String, Object> m : chains) {
      ran.add(InFlight.interval(m));
      assertTrue(((Number) m.get("pid")).longValue() != ProcessHandle.current().pid(), "ran in a worker: " + m);
      Matcher mt = slot.matcher((String) m.get("thread"));
      assertTrue(mt.find(), "a Flink worker thread names its slot among " + slots + ": " + m);
      bySlot.computeIfAbsent(m.get("pid") + "/" + mt.group(1), k -> new ArrayList<>()).add(m);
    }
    for (List<Map<String, Object>> same : bySlot.values()) {
      assertTrue(same.size() <= ceiling, chains.size() + " chains on " + slots + " slots, one ran " + same);
      List<Instant[]> onSlot = new ArrayList<>();
      for (Map<String, Object> m : same) onSlot.add(InFlight.interval(m));
      assertEquals(1, InFlight.peak(onSlot), "chains that share a slot run one after the other: " + same);
    }
    assertTrue(InFlight.peak(ran) <= slots, "never more chains at once than slots: " + chains);
    assertEquals(Math.min(chains.size(), slots), bySlot.size(), "as many slots used as chains allow: " + bySlot);
  }

  /** The endpoints' limits for the whole job, which each of the two workers holds half of. */
  private static final int ENDPOINT_CONCURRENCY = 2;
  private static final int REQUESTS_PER_MINUTE = 20;
  private static final int TOKENS_PER_MINUTE = 80_000;

  /** The rubric judge of the endpoint test's namespace on the cluster, with the configuration {@code config}. */
  private static List<String> judgeArgs(Path out, Path config) throws IOException {
    return List.of("judge", "--namespaces=" + out.resolve("runs/signed_sums-oc-agg1"), "--grader=rubric",
        "--config=" + config, "--benchRoot=" + CHECKOUT.resolve("examples/folder-bench"), "--runner=FlinkRunner",
        "--flinkMaster=" + master, "--parallelism=" + SHAPE.slots(), "--filesToStage=" + clusterJar());
  }

  /**
   * A call the model served: when it came and went, whether the executor or the judge made it, the tokens its reply
   * reported.
   */
  private record Served(Instant from, Instant to, boolean executor, boolean judge, long tokens) {}

  /**
   * An endpoint's {@code max_concurrency}, {@code requests_per_minute} and {@code tokens_per_minute} hold for the whole
   * job, seen from the model's side. The worked example's folder sweep (4 tasks, both modes, k = 1: four chains, so
   * both TaskManagers run two) calls a loopback model for every rollout and session: the rollouts through an endpoint
   * limited to 20 requests a minute, the sessions through one limited in tokens. The server saw never more than two
   * calls of an endpoint in flight, and two of one at once (both workers busy). It saw never more than 20 rollouts
   * within 55 s (the slack: the model sees a call after its worker counted it), and the rest only once the minute had
   * passed, so the rate bound was reached, not idle. Within any 55 s of replies, the sessions' tokens stayed under the
   * token limit plus what the calls in flight when it was reached could add (one call's tokens per call in flight,
   * RateWindow's bound), below what each worker keeping the whole limit would have allowed; and the sessions past the
   * first minute's tokens waited for it. The rubric judge of the same namespace, a job of its own on the cluster,
   * divides its endpoint's limits among the workers too: an endpoint of one call at once is refused before anything
   * is sent, and one of two calls grades every row with never more than two at the model. Each worker read the key
   * from its own environment (the job carries none), and no file or log of the run or the cluster holds its value.
   */
  @Test
  @Order(1)
  void anEndpointsConcurrencyAndRateLimitsHoldForTheWholeJobSeenByTheModel(@TempDir Path out) throws Exception {
    String key = System.getenv(KEY_VAR);
    assertTrue(key != null && key.length() > 8, "the pom (and .ci/run, for its cluster) set " + KEY_VAR);
    List<Served> served = java.util.Collections.synchronizedList(new ArrayList<>());
    SignedSumsModel model = new SignedSumsModel();
    Path config = out.resolve("config.yaml");
    try (ScriptedModelServer server = ScriptedModelServer.start(request -> {
      Instant from = Instant.now();
      String answer = "";
      try {
        Thread.sleep(150); // a model takes its time: calls overlap wherever the limits let them
        answer = model.answer(request);
        return answer;
      } finally {
        String m = request.path("model").asText();
        served.add(new Served(from, Instant.now(), "exec-model".equals(m), "judge-model".equals(m),
            ScriptedModelServer.totalTokens(request, answer)));
      }
    })) {
      Files.createDirectories(out);
      String endpoint = "{base_url: \"" + server.baseUrl() + "\", api_key_env: \"" + KEY_VAR + "\", max_concurrency: "
          + ENDPOINT_CONCURRENCY + ", timeout_seconds: 60, max_attempts: 2, ";
      Files.writeString(config, "endpoints:\n"
          + "  rollouts: " + endpoint + "requests_per_minute: " + REQUESTS_PER_MINUTE + "}\n"
          + "  sessions: " + endpoint + "tokens_per_minute: " + TOKENS_PER_MINUTE + "}\n"
          + "  judging: " + endpoint + "}\nroles:\n"
          + "  executor: {endpoint: rollouts, model: \"exec-model\", temperature: 0.0, max_tokens: 64}\n"
          + "  improver: {endpoint: sessions, model: \"improve-model\"}\n"
          + "  selector: {endpoint: sessions, model: \"select-model\"}\n"
          + "  reflector: {endpoint: sessions, model: \"select-model\"}\n"
          + "  judge: {endpoint: judging, model: \"judge-model\"}\n"
          + "grants:\n  - {benchmark: signed_sums, endpoint: judging, model: \"judge-model\","
          + " references: \"grading/rubric.json\"}\n");
      List<String> args = new ArrayList<>(List.of("sweep", "--bench=folder",
          "--benchRoot=" + CHECKOUT.resolve("examples/folder-bench"), "--config=" + config,
          "--runsRoot=" + out.resolve("runs"), "--libraryRoot=" + out.resolve("library"), "--k=1",
          "--modes=parallel,sequential", "--sessionRetryWaitSeconds=0", "--sessionLimit=4", "--rolloutLimit=4"));
      args.addAll(List.of(onCluster()));
      Process sweep = client(out, args);
      // once the minute's calls are made the sweep waits out the rest of it: the DirectRunner's run the other tests
      // compare with uses that time (this test runs first for it)
      long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(5);
      while (served.size() < REQUESTS_PER_MINUTE && sweep.isAlive() && System.nanoTime() < deadline) {
        Thread.sleep(100);
      }
      direct();
      finish(sweep, out);
      // the rubric judge of the same namespace, on the cluster: a job of its own, whose workers divide the judge
      // endpoint's limits too, so one call at once cannot be divided between two workers and is refused, unsent
      String text = Files.readString(config);
      String judging = text.substring(text.indexOf("  judging: "), text.indexOf('\n', text.indexOf("  judging: ")));
      Path narrow = out.resolve("narrow.yaml");
      Files.writeString(narrow, text.replace(judging, judging.replace("max_concurrency: " + ENDPOINT_CONCURRENCY,
          "max_concurrency: 1")));
      Process refused = client(out.resolve("refused"), judgeArgs(out, narrow));
      assertTrue(refused.waitFor(300, TimeUnit.SECONDS));
      String why = Files.readString(out.resolve("refused/console.log"));
      assertTrue(refused.exitValue() != 0 && why.contains("endpoints.judging.max_concurrency is 1, fewer than the"
          + " job's 2 workers"), why);
      assertTrue(served.stream().noneMatch(Served::judge), "the refused judge called the model");
      Process judge = client(out.resolve("judge"), judgeArgs(out, config));
      finish(judge, out.resolve("judge"));
      assertTrue(server.requests().stream().allMatch(ScriptedModelServer.Request::authorized),
          "every request carried the key from the worker's environment");
    }
    // 4 tasks in 2 modes graded by the model; each worker held one of the judge endpoint's two calls at once
    String judged = Files.readString(out.resolve("judge/console.log"));
    assertTrue(judged.contains("judged.json: 8 row(s), 8 graded, 0 ungraded"), judged);
    List<Served> judging = served.stream().filter(Served::judge).toList();
    assertTrue(judging.size() >= 8, "the judge's calls: " + judging.size());
    assertTrue(InFlight.peak(interval(judging)) <= ENDPOINT_CONCURRENCY, "judge calls in flight at once at the"
        + " model: " + InFlight.peak(interval(judging)));
    String console = Files.readString(out.resolve("console.log"));
    assertTrue(console.contains(": 4 tasks ok, 0 failed"), console);
    // each task's line reaches the client, read from the record the workers wrote (not only their logs)
    assertEquals(4, console.lines().filter(l -> l.matches("  \\[[^]]+\\] [12]/2 ok +\\S+")).count(), console);
    List<Served> rollouts = served.stream().filter(Served::executor).toList();
    List<Served> sessions = served.stream().filter(c -> !c.executor() && !c.judge()).toList();
    // a worker counts a minute from when it starts a call (its tokens from when the reply came), and the model sees
    // the call later: by up to seconds for a worker's first calls on a loaded machine (its HTTP client's first use).
    // Without the division each worker would have used the whole limit at once; the windows are checked at 55 s
    Duration window = Duration.ofSeconds(55);

    List<Instant> arrivals = rollouts.stream().map(Served::from).sorted().toList();
    assertTrue(arrivals.size() > REQUESTS_PER_MINUTE, "the sweep needs more rollouts than a minute allows: "
        + arrivals.size());
    Window requests = heaviest(rollouts, Served::from, c -> 1, window);
    assertTrue(requests.weight() <= REQUESTS_PER_MINUTE, requests.weight() + " requests within " + window + " from "
        + requests.from());
    assertTrue(Duration.between(arrivals.get(0), arrivals.get(arrivals.size() - 1)).compareTo(window) >= 0,
        "the requests past the first minute's " + REQUESTS_PER_MINUTE + " waited for it: " + arrivals.get(0) + " .. "
        + arrivals.get(arrivals.size() - 1));

    List<Served> replies = sessions.stream().sorted(java.util.Comparator.comparing(Served::to)).toList();
    long total = replies.stream().mapToLong(Served::tokens).sum();
    long largest = replies.stream().mapToLong(Served::tokens).max().orElse(0);
    // each worker's share, and at most one call's tokens per call it has in flight when its share is reached
    long bound = TOKENS_PER_MINUTE + (long) ENDPOINT_CONCURRENCY * largest;
    // about 150,000 tokens in 32 replies of 3,200-6,450, some 107,000 of them asked for in the first seconds: more
    // than the job's bound, and under what the two workers would take if each kept the whole limit
    assertTrue(total > bound && bound < 2L * TOKENS_PER_MINUTE, "the sessions' tokens (" + total + ", the largest"
        + " reply's " + largest + ") must be more than the job's limit allows in a minute (" + bound + "), and that"
        + " bound less than both workers keeping the whole limit (" + 2L * TOKENS_PER_MINUTE + ")");
    Window tokens = heaviest(sessions, Served::to, Served::tokens, window);
    assertTrue(tokens.weight() <= bound, tokens.weight() + " tokens replied within " + window + " from "
        + tokens.from() + ", over " + TOKENS_PER_MINUTE + " plus " + ENDPOINT_CONCURRENCY + " calls of at most "
        + largest);
    assertTrue(Duration.between(replies.get(0).to(), replies.get(replies.size() - 1).to()).compareTo(window) >= 0,
        "the sessions past the first minute's tokens waited for it: " + replies.get(0).to() + " .. "
        + replies.get(replies.size() - 1).to());

    // each worker holds one of an endpoint's two calls: never more than two of an endpoint at once, and two (both
    // workers calling one endpoint at once) at the busiest instant of one of them
    int rolloutPeak = InFlight.peak(interval(rollouts));
    int sessionPeak = InFlight.peak(interval(sessions));
    assertTrue(rolloutPeak <= ENDPOINT_CONCURRENCY && sessionPeak <= ENDPOINT_CONCURRENCY, "calls of an endpoint in"
        + " flight at once at the model: rollouts " + rolloutPeak + ", sessions " + sessionPeak);
    assertEquals(ENDPOINT_CONCURRENCY, Math.max(rolloutPeak, sessionPeak), "both workers calling an endpoint at once");

    // the client's last progress line sums both workers' boards: every call the model got, none failed, and the
    // calls past the minute's requests or tokens waited for it (which limit binds more depends on the timing)
    List<String> progress = console.lines().filter(l -> l.startsWith("progress ")).toList();
    String last = progress.get(progress.size() - 1);
    java.util.regex.Matcher m = java.util.regex.Pattern.compile("rollouts 0 sending, 0 waiting \\((\\d+) calls done,"
        + " ([0-9.]+) s waited\\); sessions 0 sending, 0 waiting \\((\\d+) calls done, ([0-9.]+) s waited\\)")
        .matcher(last);
    assertTrue(m.find(), last + failedCalls(out));
    assertEquals(rollouts.size(), Integer.parseInt(m.group(1)), last);
    assertEquals(sessions.size(), Integer.parseInt(m.group(3)), last);
    assertTrue(Double.parseDouble(m.group(2)) + Double.parseDouble(m.group(4)) > 5, "the calls waited for the"
        + " minute's window: " + last);

    List<Path> journals;
    try (Stream<Path> files = Files.walk(out.resolve("runs/_audit"))) {
      journals = files.filter(f -> f.getFileName().toString().matches("sessions\\..+\\.jsonl")).toList();
    }
    assertTrue(journals.stream().map(f -> f.getFileName().toString()).distinct().count() >= 2,
        "both worker processes called the model: " + journals);
    List<Path> holding = new ArrayList<>(FilesHolding.containing(out, key));
    holding.addAll(FilesHolding.containing(clusterDir.resolve("log"), key));
    assertEquals(List.of(), holding, "no file or log of the run or the cluster holds the key's value");
  }

  /**
   * The model calls recorded under {@code out} that failed (cut off, or answered with an error status), each as its
   * file and record: what a rare failed call said, where an assertion that none failed fails (at most five).
   */
  static String failedCalls(Path out) throws java.io.IOException {
    StringBuilder sb = new StringBuilder();
    try (java.util.stream.Stream<Path> files = Files.walk(out)) {
      for (Path f : files.filter(Files::isRegularFile).filter(f -> f.toString().endsWith(".jsonl")).toList()) {
        if (Files.size(f) > 4_000_000) continue;
        for (String line : Files.readAllLines(f)) {
          boolean cut = line.matches(".*\"dropped\" ?: ?\".*");
          boolean refused = line.matches(".*\"status\" ?: ?[45][0-9][0-9].*");
          if ((cut || refused) && sb.length() < 5000) sb.append("\n  ").append(out.relativize(f)).append(": " + line);
        }
      }
    }
    return sb.length() == 0 ? "" : "\nfailed model calls recorded:" + sb;
  }

  /**
   * Rollouts by the real Codex CLI on both TaskManagers, on an endpoint with room for two calls: each worker runs up
   * to four rollouts at once, but every CLI call goes through its worker's relay, which takes that worker's one slot,
   * so the model never sees more than two at once. (Without the relay four rollouts on one worker would call at once.)
   * The model's count of a call runs from when it took the request to when it began the last write of its reply
   * ({@link ScriptedModelServer.Timing#end}): Codex leaves at its reply's last event, and its relay then gives the
   * slot to the worker's next call, which may reach the model before the model's own thread, descheduled on a loaded
   * machine, is done with the stream (a count to there once saw three at once). The relays' call logs give the same
   * bound from the workers' side. A failed check keeps both, and the model's timeline, under
   * {@code target/flink-cluster-it-evidence}. Where this machine can, the rollouts run isolated
   * ({@code --isolation=namespaces}): each TaskManager probes and isolates on its own.
   */
  @Test
  void agentCliRolloutsHoldTheEndpointsConcurrencyForTheWholeJob(@TempDir Path out) throws Exception {
    String key = System.getenv(KEY_VAR);
    String path = dev.h2beam.adapters.agents.AgentModel.RESPONSES_PATH;
    boolean isolated = dev.h2beam.adapters.exec.Isolation.unavailable().isEmpty();
    List<ScriptedModelServer.Timing> timeline = new ArrayList<>();
    try {
      try (ScriptedModelServer server = ScriptedModelServer.start(new SignedSumsModel())) {
        try {
          dev.h2beam.adapters.agents.AgentModel.serve(server, new dev.h2beam.pipelines.folder.SignedSumsAgent());
          ScriptedModelServer.Route codex = server.routeOf(path);
          server.route(path, call -> {
            Thread.sleep(250); // a model takes its time: calls overlap wherever the limits let them
            codex.handle(call);
          });
          Path config = out.resolve("config.yaml");
          Files.createDirectories(out);
          String endpoint = "{base_url: \"" + server.baseUrl() + "\", api_key_env: \"" + KEY_VAR + "\","
              + " timeout_seconds: 60, max_attempts: 2, max_concurrency: ";
          Files.writeString(config, "endpoints:\n  agents: " + endpoint + ENDPOINT_CONCURRENCY + "}\n"
              + "  sessions: " + endpoint + "4}\nroles:\n  executor: {endpoint: agents, model: e}\n"
              + "  improver: {endpoint: sessions, model: i}\n  selector: {endpoint: sessions, model: s}\n"
              + "  reflector: {endpoint: sessions, model: s}\n");
          List<String> args = new ArrayList<>(List.of("sweep", "--bench=folder",
              "--benchRoot=" + CHECKOUT.resolve("examples/folder-bench"), "--config=" + config,
              "--runsRoot=" + out.resolve("runs"), "--libraryRoot=" + out.resolve("library"), "--k=1",
              "--modes=parallel", "--executor=codex", "--substrate=cx", "--sessionRetryWaitSeconds=0",
              "--sessionLimit=4", "--rolloutLimit=8"));
          // every Codex rollout isolated on the TaskManagers, where this machine can (the same machine here)
          if (isolated) args.add("--isolation=namespaces");
          args.addAll(List.of(onCluster()));
          finish(client(out, args), out);
        } finally {
          timeline.addAll(server.timings());
        }
      }
      String console = Files.readString(out.resolve("console.log"));
      assertTrue(console.contains(": 4 tasks ok, 0 failed"), console);
      assertEquals(isolated ? "namespaces" : "", Json.readTree(out.resolve("runs/signed_sums-cx-agg1/config.json"))
          .path("isolation").asText(), "the isolation the workers ran the rollouts in");
      // each task's line reaches the client, read from the record the workers wrote (not only their logs)
      assertEquals(4, console.lines().filter(l -> l.matches("  \\[[^]]+\\] [12]/2 ok +\\S+")).count(), console);
      List<ScriptedModelServer.Timing> calls = timeline.stream().filter(t -> t.path().equals(path)).toList();
      assertTrue(calls.size() >= 16, "every rollout called the model: " + calls.size() + " calls");
      List<Instant[]> atModel = new ArrayList<>();
      List<String> atModelNamed = new ArrayList<>();
      for (ScriptedModelServer.Timing t : calls) {
        atModel.add(new Instant[] {t.arrived(), t.end()});
        atModelNamed.add(t.arrived() + " .. " + t.end() + " (its handler done " + t.ended() + ") " + rollout(t, out));
      }
      // the same from the files: each rollout's relay recorded when its calls held a slot
      List<Instant[]> held = new ArrayList<>();
      List<String> heldNamed = new ArrayList<>();
      List<Path> logs = callLogs(out);
      for (Path log : logs) {
        for (String line : Files.readAllLines(log)) {
          Map<String, Object> call = Json.readMap(line);
          held.add(new Instant[] {Instant.parse((String) call.get("sent")), Instant.parse((String) call.get("done"))});
          heldNamed.add(call.get("sent") + " .. " + call.get("done") + " " + out.relativize(log.getParent()));
        }
      }
      int peak = InFlight.peak(atModel);
      int heldPeak = InFlight.peak(held);
      // both counts before either check, so that a failure of one says what the other saw
      String seen = peak + " Codex calls in flight at once at the model:" + named(atModelNamed, atModel) + "\n"
          + heldPeak + " Codex calls held a relay's slot at once, from the files:" + named(heldNamed, held);
      assertTrue(peak <= ENDPOINT_CONCURRENCY && heldPeak <= ENDPOINT_CONCURRENCY, seen);
      assertTrue(logs.size() >= 16 && held.size() == calls.size(), logs.size() + " rollouts recorded " + held.size()
          + " calls; the model served " + calls.size());
      List<Path> holding = new ArrayList<>(FilesHolding.containing(out, key));
      holding.addAll(FilesHolding.containing(clusterDir.resolve("log"), key));
      assertEquals(List.of(), holding, "no file or log of the run or the cluster holds the key's value");
    } catch (AssertionError e) {
      throw kept(e, out, timeline);
    }
  }

  /** The call logs ({@code model_calls.jsonl}) of every rollout under {@code out}'s runs, in path order. */
  private static List<Path> callLogs(Path out) throws IOException {
    Path runs = out.resolve("runs");
    if (!Files.isDirectory(runs)) return List.of();
    try (Stream<Path> files = Files.walk(runs)) {
      return files.filter(f -> f.getFileName().toString().equals("model_calls.jsonl")).sorted().toList();
    }
  }

  private static final Pattern CWD = Pattern.compile("<cwd>([^<]+)</cwd>");

  /**
   * The rollout a Codex call came from: the run folder (relative to {@code out}) whose workspace its environment
   * context names as its working folder, where that run's relay keeps its call log; "" when it names none.
   */
  private static String rollout(ScriptedModelServer.Timing t, Path out) {
    Matcher m = t.request() == null ? null : CWD.matcher(t.request().rawBody());
    if (m == null || !m.find()) return "";
    Path cwd = Path.of(m.group(1));
    Path run = cwd.getFileName() != null && cwd.getFileName().toString().equals("workspace") ? cwd.getParent() : cwd;
    return run.startsWith(out) ? out.relativize(run).toString() : run.toString();
  }

  /** The intervals open at the busiest instant ({@link InFlight#atPeak}), one a line by its name. */
  private static String named(List<String> names, List<Instant[]> intervals) {
    StringBuilder sb = new StringBuilder();
    for (int i : InFlight.atPeak(intervals)) sb.append("\n  ").append(names.get(i));
    return sb.toString();
  }

  /**
   * Keeps what a failed check of the Codex test read, before its temporary folder goes, in a folder of its own under
   * {@code target/flink-cluster-it-evidence}: every rollout's call log (under its path in the run), the client's
   * console, the model server's timeline of every call it served ({@code model-server-timeline.jsonl}: one JSON
   * line each, in the order it was done with them, with the rollout it came from) and the failure's message. Returns
   * the failure with that folder named; one that could not be kept says why.
   */
  private static AssertionError kept(AssertionError failure, Path out, List<ScriptedModelServer.Timing> timeline) {
    String stamp = java.time.format.DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss", java.util.Locale.ROOT)
        .withZone(java.time.ZoneOffset.UTC).format(Instant.now());
    Path dir = Path.of("target", "flink-cluster-it-evidence", "agentCliRollouts-" + stamp).toAbsolutePath();
    try {
      Files.createDirectories(dir);
      for (Path log : callLogs(out)) {
        Path to = dir.resolve(out.relativize(log).toString());
        Files.createDirectories(to.getParent());
        Files.copy(log, to);
      }
      if (Files.exists(out.resolve("console.log"))) Files.copy(out.resolve("console.log"), dir.resolve("console.log"));
      StringBuilder lines = new StringBuilder();
      for (ScriptedModelServer.Timing t : timeline) {
        Map<String, Object> line = new java.util.LinkedHashMap<>();
        line.put("method", t.method());
        line.put("path", t.path());
        line.put("arrived", String.valueOf(t.arrived()));
        line.put("answered", t.answered() == null ? null : t.answered().toString());
        line.put("last_write", t.lastWrite() == null ? null : t.lastWrite().toString());
        line.put("closing", String.valueOf(t.closing()));
        line.put("ended", String.valueOf(t.ended()));
        line.put("rollout", rollout(t, out));
        lines.append(Json.MAPPER.writeValueAsString(line)).append('\n');
      }
      Files.writeString(dir.resolve("model-server-timeline.jsonl"), lines);
      Files.writeString(dir.resolve("failure.txt"), String.valueOf(failure.getMessage()) + "\n");
    } catch (IOException | RuntimeException e) {
      failure.addSuppressed(e);
      return failure;
    }
    AssertionError named = new AssertionError(failure.getMessage() + "\n(the rollouts' call logs and the model's"
        + " timeline are kept in " + dir + ")", failure);
    named.setStackTrace(failure.getStackTrace());
    return named;
  }

  /** The most weight the calls put in one window, and the time the window starts at. */
  private record Window(Instant from, long weight) {}

  /** The window of {@code width} starting at one of the calls' times ({@code at}) that holds the most weight. */
  private static Window heaviest(List<Served> calls, java.util.function.Function<Served, Instant> at,
      java.util.function.ToLongFunction<Served> weight, Duration width) {
    List<Served> sorted = calls.stream().sorted(java.util.Comparator.comparing(at)).toList();
    Window most = new Window(null, 0);
    for (int i = 0; i < sorted.size(); i++) {
      Instant end = at.apply(sorted.get(i)).plus(width);
      long in = 0;
      for (int j = i; j < sorted.size() && !at.apply(sorted.get(j)).isAfter(end); j++) {
        in += weight.applyAsLong(sorted.get(j));
      }
      if (in > most.weight()) most = new Window(at.apply(sorted.get(i)), in);
    }
    return most;
  }

  private static List<Instant[]> interval(List<Served> calls) {
    return calls.stream().map(c -> new Instant[] {c.from(), c.to()}).toList();
  }

  /**
   * A key variable the client has and the TaskManagers lack (the job carries no key: each worker reads its own
   * environment) is refused by the workers at the job's first stage, before any call; the client's last line names
   * the variable, the worker's host and the fix, and no sweep record is written.
   */
  @Test
  void aKeyTheClientHasAndTheTaskManagersLackIsRefusedByTheWorkersNamingIt(@TempDir Path out) throws Exception {
    String var = "H2BEAM_CLIENT_ONLY_KEY";
    Files.createDirectories(out);
    Path config = out.resolve("config.yaml");
    Files.writeString(config, "endpoints:\n  local: {base_url: \"http://127.0.0.1:9/v1\", api_key_env: \"" + var
        + "\", max_concurrency: 2}\nroles:\n  executor: {endpoint: local, model: e}\n"
        + "  improver: {endpoint: local, model: i}\n  selector: {endpoint: local, model: s}\n"
        + "  reflector: {endpoint: local, model: s}\n");
    List<String> args = new ArrayList<>(List.of("sweep", "--bench=folder",
        "--benchRoot=" + CHECKOUT.resolve("examples/folder-bench"), "--config=" + config,
        "--runsRoot=" + out.resolve("runs"), "--libraryRoot=" + out.resolve("library"), "--k=1", "--modes=parallel"));
    args.addAll(List.of(onCluster()));
    Process p = client(out, args, Map.of(var, "client-only-value-1f3a"));
    assertTrue(p.waitFor(300, TimeUnit.SECONDS), "the refused sweep did not end in 5 minutes");
    String console = Files.readString(out.resolve("console.log"));
    assertEquals(1, p.exitValue(), console);
    List<String> lines = console.lines().toList();
    String last = lines.get(lines.size() - 1);
    assertTrue(last.startsWith("error: sweep failed: the worker on host ") && last.contains(" has no " + var
        + " (api_key_env of endpoint local) in its environment, which the client has: start every TaskManager with"
        + " the key variables"), console);
    assertEquals(List.of(), FilesHolding.containing(out, "client-only-value-1f3a"), "the client's value was written");
    assertTrue(!Files.exists(out.resolve("runs/_sweeps")), "a refused sweep writes no record");
  }

  /**
   * The script starts every TaskManager, a replacement too, with glibc's arenas limited (MALLOC_ARENA_MAX): without,
   * a worker's resident memory grew with every large job to its whole process size (BENCHMARKS.md).
   */
  private static void assertEveryTaskManagerLimitsItsMallocArenas() throws Exception {
    if (!Files.isDirectory(Path.of("/proc/self"))) return;
    List<Path> pids;
    try (Stream<Path> files = Files.list(clusterDir)) {
      pids = files.filter(f -> f.getFileName().toString().matches("taskmanager-\\d+\\.pid")).sorted().toList();
    }
    int alive = 0;
    for (Path f : pids) {
      if (Files.exists(f.resolveSibling(f.getFileName() + ".killed"))) continue;
      Path environ = Path.of("/proc", Files.readString(f).strip(), "environ");
      alive++;
      List<String> vars = List.of(new String(Files.readAllBytes(environ), StandardCharsets.UTF_8).split("\0"));
      assertTrue(vars.stream().anyMatch(v -> v.matches("MALLOC_ARENA_MAX=\\d+")), f + ": no MALLOC_ARENA_MAX");
    }
    assertEquals(SHAPE.workers(), alive, "TaskManagers alive among " + pids);
  }

  @Test
  void aTaskManagerKilledMidSweepCostsARestartNotASecondRollout(@TempDir Path cluster) throws Exception {
    Process p = demo(cluster, onCluster());
    Path executions = cluster.resolve("runs/_audit/" + NS + "/executions.jsonl");
    long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(5);
    while (Journal.lines(executions).size() < 40) {
      assertTrue(p.isAlive(), "the sweep ended before the kill: " + Files.readString(cluster.resolve("console.log")));
      assertTrue(System.nanoTime() < deadline, "no rollout ran within 5 minutes");
      Thread.sleep(20);
    }
    int before = Journal.lines(executions).size();
    assertTrue(before < TASKS * 14 && p.isAlive(), "killed in the middle: " + before + " of 168 rollouts had run");
    script("kill-taskmanager");
    // a supervisor (systemd, Kubernetes) restarts a dead worker; the job restarts once four slots are back, and the
    // cluster is again two TaskManagers (the script waits until the JobManager has dropped the dead one)
    script("start-taskmanager");
    assertEveryTaskManagerLimitsItsMallocArenas();
    finish(p, cluster);
    assertNothingRanTwice(cluster);
    FlinkDemoTest.assertSameFiles(direct(), cluster);
    assertEquals(SHAPE, FlinkCluster.overview(master), "the cluster is back to its size");
  }

  /**
   * A job outlives its client. Killed with kill -9, a client leaves its job running on the cluster and its locks
   * naming it: the next client is refused, naming the job and the command that cancels it, and once that command has
   * run it takes the locks over. A client told to exit (SIGTERM here; Ctrl-C and a closed terminal alike) cancels its
   * job before it lets its locks go. Nothing ran twice.
   */
  @Test
  void aKilledClientsJobKeepsItsFoldersUntilCancelledAndAClientToldToExitCancelsItsOwn(@TempDir Path out)
      throws Exception {
    List<String> args = new ArrayList<>(List.of("bench", "--output=" + out.resolve("run"), "--k=1", "--domains=2",
        "--tasksPerDomain=2", "--executorLatencyMs=1500", "--sessionLatencyMs=1500", "--sessionRetryWaitSeconds=0",
        "--lockWaitSeconds=0"));
    args.addAll(List.of(onCluster()));
    Path lock = out.resolve("run/runs").resolve(WriterLock.FILE);

    Path audit = out.resolve("run/runs/_audit/synthetic-oc-agg1");
    Process killed = client(out.resolve("a"), args);
    ClusterJob first = runningJob(killed, lock, out.resolve("a"));
    ranMore(killed, audit, 0, out.resolve("a"));
    killed.destroyForcibly(); // SIGKILL: no shutdown hook runs
    assertTrue(killed.waitFor(30, TimeUnit.SECONDS));
    assertEquals(ClusterJob.Phase.RUNNING, first.state().phase(), "the job runs on without its client");

    Process refused = client(out.resolve("b"), args);
    assertTrue(refused.waitFor(120, TimeUnit.SECONDS), "the second client did not end");
    String console = Files.readString(out.resolve("b/console.log"));
    assertEquals(1, refused.exitValue(), console);
    Matcher cancel = Pattern.compile("curl -X PATCH '([^']+)'").matcher(console);
    assertTrue(console.contains("is being written by " + first.describe() + " (RUNNING)") && cancel.find(), console);
    assertEquals(first, jobOf(lock), "the killed client's lock is left as it was");
    // the user runs the command the refusal gave
    HttpResponse<String> r = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(cancel.group(1)))
        .method("PATCH", HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());
    assertEquals(202, r.statusCode(), r.body());
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (first.state().phase() != ClusterJob.Phase.ENDED) {
      assertTrue(System.nanoTime() < deadline, "the cancelled job did not end within a minute");
      Thread.sleep(200);
    }

    Process stopped = client(out.resolve("c"), args);
    ClusterJob second = runningJob(stopped, lock, out.resolve("c"));
    assertTrue(!second.equals(first), second.toString());
    ranMore(stopped, audit, ran(audit).size(), out.resolve("c"));
    stopped.destroy(); // SIGTERM
    assertTrue(stopped.waitFor(60, TimeUnit.SECONDS), "the client told to exit did not");
    console = Files.readString(out.resolve("c/console.log"));
    assertTrue(console.contains("took over the lock " + lock + " (its process " + killed.pid() + " on this host is"
        + " gone, and " + first.describe() + " has ended (CANCELED))"), console);
    assertTrue(console.contains("h2beam: exiting: cancelling " + second.describe() + " first"), console);
    assertEquals("CANCELED", second.state().flinkState(), console);
    try (Stream<Path> s = Files.walk(out.resolve("run"))) {
      assertEquals(List.of(), s.filter(p -> p.getFileName().toString().equals(WriterLock.FILE)).toList(),
          "every lock let go");
    }
    List<String> ran = ran(audit);
    assertEquals(ran.size(), new java.util.HashSet<>(ran).size(), "ran twice: " + ran);
  }

  /** The records of executions that completed: a failed one says {@code "ok": false}, and runs again. */
  static List<String> completed(List<String> executions) throws IOException {
    List<String> out = new ArrayList<>();
    for (String line : executions) if (!Boolean.FALSE.equals(Json.readMap(line).get("ok"))) out.add(line);
    return out;
  }

  /** Every completed rollout (its run id) and session (label and key) the journals under {@code audit} list. */
  static List<String> ran(Path audit) throws IOException {
    List<String> ran = new ArrayList<>();
    for (String line : completed(Journal.lines(audit.resolve("executions.jsonl")))) {
      ran.add("" + Json.readMap(line).get("run_id"));
    }
    for (String line : Journal.lines(audit.resolve("sessions.jsonl"))) {
      Map<String, Object> m = Json.readMap(line);
      ran.add(m.get("label") + "/" + m.get("key"));
    }
    return ran;
  }

  /** Waits until the journals list two more rollouts or sessions than {@code before}: the client's job ran some. */
  static void ranMore(Process client, Path audit, int before, Path out) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
    while (ran(audit).size() < before + 2) {
      assertTrue(client.isAlive(), "the client ended: " + Files.readString(out.resolve("console.log")));
      assertTrue(System.nanoTime() < deadline, "nothing ran within 2 minutes");
      Thread.sleep(100);
    }
  }

  /** The job a lock names, or null. */
  static ClusterJob jobOf(Path lock) throws IOException {
    if (!Files.exists(lock)) return null;
    Map<String, Object> m = Json.readMap(lock);
    return m.get("job") instanceof Map<?, ?> j ? ClusterJob.of("" + j.get("flink_rest"), "" + j.get("name")) : null;
  }

  /** Waits until the client's locks name its job and the JobManager reports that job running. */
  static ClusterJob runningJob(Process client, Path lock, Path out) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(3);
    while (true) {
      assertTrue(client.isAlive(), "the client ended: " + Files.readString(out.resolve("console.log")));
      assertTrue(System.nanoTime() < deadline, "no job running within 3 minutes");
      ClusterJob job = jobOf(lock);
      if (job != null && job.state().phase() == ClusterJob.Phase.RUNNING
          && job.state().flinkState().equals("RUNNING")) {
        return job;
      }
      Thread.sleep(200);
    }
  }
}
