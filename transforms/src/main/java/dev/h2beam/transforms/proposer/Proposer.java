package dev.h2beam.transforms.proposer;

import dev.h2beam.adapters.exec.HostFailure;
import dev.h2beam.adapters.files.AtomicFiles;
import dev.h2beam.adapters.files.Uninterruptible;
import dev.h2beam.adapters.files.Hashes;
import dev.h2beam.adapters.files.Json;
import dev.h2beam.adapters.files.JvmExit;
import dev.h2beam.adapters.files.PathOrder;
import dev.h2beam.adapters.files.Scratch;
import dev.h2beam.adapters.files.Trees;
import dev.h2beam.adapters.model.ChannelSpec;
import dev.h2beam.adapters.model.SessionResult;
import dev.h2beam.adapters.model.Tokens;
import dev.h2beam.adapters.proposer.EvidenceView;
import dev.h2beam.adapters.proposer.ProposerChannel;
import dev.h2beam.transforms.evidence.FileTrees;
import dev.h2beam.transforms.evidence.HeldTree;
import dev.h2beam.transforms.safety.CredentialScreen;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;

/**
 * Makes improver, selector and reflector calls (spec §10.1–§10.4). Each call runs in a fresh working folder with the
 * evidence copied to {@code context/}, within the process-wide session limit, with up to {@code attempts} session
 * attempts. With an audit folder every call leaves its mission, reply and meta there, and a call whose label, mission,
 * system text, evidence path and evidence bytes match an earlier successful call is served from that reply cache:
 * re-running a sweep spends nothing twice. A served reply carries the attempts and cost of the session that made it,
 * so records that count spend are the same whichever process ran the session (harness2 reports a cache hit as free,
 * which makes a resumed summary differ from a clean one). Every session actually run is appended to
 * {@code sessions.jsonl}; a failed one with the last attempt's error, so the journal alone says why it failed. Its
 * record holds when each attempt held a slot of the session limit ({@link Journal#held}).
 */
public final class Proposer {
  /**
   * The cache entries this process is writing, from their first file until their journal line: a reply found in the
   * cache while its writer is still on the way to the journal is not a lost record (the runner retried the element
   * while the cancelled attempt finished its record).
   */
  private static final Set<Path> RECORDING = ConcurrentHashMap.newKeySet();

  private final ProposerChannel channel;
  private final ChannelSpec spec;
  private final Path auditDir;
  private final Path scratch;
  private final int attempts;
  private final Semaphore sessions;
  private final Duration retryWait;

  /**
   * Why a session's reply cannot be used by its caller (a selector's reply without its choice), or "" when it can.
   * Such a reply is a failed attempt, as an empty one is: the endpoint answered, but a session that answered nothing
   * usable must not be cached as a success, or every resume would replay it and its task could never succeed.
   */
  @FunctionalInterface
  public interface Usable {
    /** Every non-blank reply is usable: the caller parses nothing it requires (an improver's, a reflector's). */
    Usable ANY = text -> "";

    String problem(String text);
  }

  public Proposer(ProposerChannel channel, ChannelSpec spec, Path auditDir, int attempts, Semaphore sessions,
      Duration retryWait) {
    this(channel, spec, auditDir, null, attempts, sessions, retryWait);
  }

  /**
   * @param scratch where session folders are made ({@link Scratch#of} of the runs root, so a killed sweep's folders
   *     are removed when the next sweep takes the lock), or null for the system's temporary folder
   */
  public Proposer(ProposerChannel channel, ChannelSpec spec, Path auditDir, Path scratch, int attempts,
      Semaphore sessions, Duration retryWait) {
    if (spec.model().isBlank()) {
      throw new IllegalArgumentException("the " + spec.kind() + " channel has no model: set the improver model");
    }
    this.channel = channel;
    this.spec = spec;
    this.auditDir = auditDir;
    this.scratch = scratch;
    this.attempts = Math.max(1, attempts);
    this.sessions = sessions;
    this.retryWait = retryWait;
  }

  public ChannelSpec spec() {
    return spec;
  }

  /**
   * Calls the channel.
   *
   * @param contextDir the evidence folder (copied to the session's {@code context/}), or null
   * @param harvest a sub-folder of the session folder (e.g. {@code context/harness}) to keep as the reply's workspace
   */
  public Reply call(String mission, Path contextDir, String label, String system, String harvest)
      throws ProposerError {
    return call(mission, contextDir, label, system, harvest, Usable.ANY);
  }

  /** The same, where a reply {@code usable} finds a problem with is a failed attempt ({@link Usable}). */
  public Reply call(String mission, Path contextDir, String label, String system, String harvest, Usable usable)
      throws ProposerError {
    notCancelled(label);   // before the evidence is read: a read cut by the interrupt is not the evidence
    // one listing and one read of the evidence serve both the cache key and the session's copy
    Path root = contextDir == null ? null : contextDir.toAbsolutePath().normalize();
    return callWithEvidence(mission, root != null && Files.isDirectory(root)
        ? HeldTree.read(root, PathOrder.list(root)) : null, label, system, harvest, usable);
  }

  /**
   * Refuses to start a session when the runner is cancelling this work: its evidence may be half built (a file copy
   * closes on an interrupt), and a session keyed and run on it would be a second, different session when the retried
   * element rebuilds it.
   */
  private static void notCancelled(String label) throws ProposerError {
    if (Thread.currentThread().isInterrupted()) {
      throw new ProposerError("[" + label + "] not started: the runner is cancelling this work", 0, 0.0);
    }
  }

  /**
   * The same with the evidence folder already listed and read, e.g. by {@link
   * dev.h2beam.transforms.evidence.Evidence#build} (which must be what is on disk: the session works on a copy of
   * these bytes); null for none.
   */
  public Reply callWithEvidence(String mission, HeldTree evidence, String label, String system, String harvest)
      throws ProposerError {
    return callWithEvidence(mission, evidence, label, system, harvest, Usable.ANY);
  }

  /** The same, where a reply {@code usable} finds a problem with is a failed attempt ({@link Usable}). */
  public Reply callWithEvidence(String mission, HeldTree evidence, String label, String system, String harvest,
      Usable usable) throws ProposerError {
    notCancelled(label);
    String key = cacheKey(label, mission, system, evidence);
    String base = safe(label) + "." + key;
    if (auditDir != null) {
      Reply hit = cached(label, base, harvest, usable);
      if (hit != null) return hit;
    }
    double cost = 0;
    // false once an attempt's cost is not all known, or a session ended in an exception (which reports no cost)
    boolean known = true;
    // the model tokens of every attempt; not all of them once a session ended in an exception
    Tokens tokens = Tokens.NONE;
    String last = "empty reply";
    Map<String, Object> reported = Map.of();
    List<Map<String, String>> held = new ArrayList<>();
    // every attempt's model calls, for a channel that records them (the chat client, an agent CLI's relay); else null
    List<Map<String, Object>> calls = null;
    for (int attempt = 1; attempt <= attempts; attempt++) {
      if (attempt > 1) {
        if (!retryWait.isZero()) sleep(retryWait.multipliedBy(attempt - 1));
        // cancelled since the last attempt (during the wait, say): another would be a second session, as below
        if (Thread.currentThread().isInterrupted()) {
          throw new ProposerError("[" + label + "] stopped: the runner is cancelling this work", attempt - 1, cost,
              known, tokens);
        }
      }
      Path cwd = null;
      // the channel's session is under way: an exception now reports nothing of what the session spent
      boolean running = false;
      reported = Map.of();
      long started = System.nanoTime();
      try {
        cwd = Scratch.newDir(scratch, "h2beam-prop-");
        EvidenceView view = place(evidence, cwd, harvest);
        SessionResult r;
        sessions.acquireUninterruptibly();
        if (JvmExit.begun()) {
          // a slot freed while the exit waits for the work in flight: no session starts then (handled below as a
          // cancellation, which stops the chain)
          sessions.release();
          throw new InterruptedException("h2beam is exiting: the session was not started");
        }
        // the journal's times, not an input to any result: the wall clock, so workers' records compare
        Instant from = Instant.now();
        try {
          running = true;
          r = channel.run(cwd, view, mission, system, label, Duration.ofSeconds(spec.timeoutSeconds()));
          running = false;
        } finally {
          held.add(Journal.held(from, Instant.now()));
          sessions.release();
        }
        cost += r.costUsd();
        known &= r.costKnown();
        tokens = tokens.plus(r.tokens());
        reported = r.meta();
        if (reported.get(SessionResult.MODEL_CALLS) instanceof List<?> made) {
          calls = calls == null ? new ArrayList<>() : calls;
          for (Object c : made) {
            Map<String, Object> call = new LinkedHashMap<>();
            call.put("attempt", attempt);
            if (c instanceof Map<?, ?> m) m.forEach((k, v) -> call.put(String.valueOf(k), v));
            calls.add(call);
          }
        }
        if (r.text().isBlank()) {
          last = r.error().isBlank() ? "empty reply" : r.error();
          continue;
        }
        String problem = usable.problem(r.text());
        if (!problem.isEmpty()) {
          last = problem;
          continue;
        }
        double wall = Math.round((System.nanoTime() - started) / 1e8) / 10.0;
        Harvested kept = harvest == null ? null : harvest(cwd.resolve(harvest), base);
        Reply reply = new Reply(label, r.text(), true, cost, wall, attempt, false, spec.kind(), "",
            auditDir == null ? null : auditDir.resolve(base + ".response.md"), kept == null ? null : kept.dir(),
            kept == null ? null : kept.files(), known, tokens, kept == null ? List.of() : kept.withheld(),
            CredentialScreen.redact(r.refused()));
        audit(base, mission, system, reply, withCalls(reported, calls), held, harvest != null && kept == null);
        return reply;
      } catch (Exception e) {
        // thrown by the session itself: what it spent is not known (before it, nothing was spent; after it, its
        // cost is counted already)
        if (running) {
          known = false;
          tokens = tokens.partial();
        }
        if (e instanceof InterruptedException || Thread.currentThread().isInterrupted()) {
          // cancelled mid-session: another attempt on this thread would be a second session the retried element
          // then finds in the cache with two attempts; stop, and keep the interrupt for the caller
          Thread.currentThread().interrupt();
          throw new ProposerError("[" + label + "] stopped: the runner is cancelling this work", attempt, cost,
              known, tokens);
        }
        java.util.Optional<HostFailure> host = HostFailure.of("session " + label + " could not start", e);
        if (host.isPresent()) {
          // the host kept the session from starting (no file descriptors, memory or processes left): not a model
          // attempt to retry after a backoff, nor a failed session to fall back from, but a failure of the mode;
          // recorded as failed, so the same command runs it again
          audit(base, mission, system, new Reply(label, "", false, cost, 0.0, attempt - 1, false, spec.kind(),
              host.get().getMessage(), null, null, null, known, tokens), withCalls(reported, calls), held, false);
          throw host.get();
        }
        last = e.getClass().getSimpleName() + ": " + e.getMessage();
      } finally {
        // used up: removed off this chain's path (Scratch#deleteLater)
        if (cwd != null) Scratch.deleteLater(cwd);
      }
    }
    String message = "[" + label + "] " + spec.kind() + "/" + spec.model() + ": " + last;
    audit(base, mission, system, new Reply(label, "", false, cost, 0.0, attempts, false, spec.kind(), last, null,
        null, null, known, tokens), withCalls(reported, calls), held, false);
    throw new ProposerError(message, attempts, cost, known, tokens);
  }

  private Reply cached(String label, String base, String harvest, Usable usable) {
    Path response = auditDir.resolve(base + ".response.md");
    Path meta = auditDir.resolve(base + ".meta.json");
    Path workspace = auditDir.resolve(base + ".workspace");
    if (!Files.isRegularFile(response)) return null;
    try {
      String text = Files.readString(response, StandardCharsets.UTF_8);
      if (text.isBlank()) return null;
      String problem = usable.problem(text);
      if (!problem.isEmpty()) {
        // cached as a success before such replies were failed attempts: replayed, it would fail its task for good
        System.err.println("h2beam: reply cache entry " + response + " holds a reply that cannot be used ("
            + problem + "); calling the session again");
        return null;
      }
      com.fasterxml.jackson.databind.JsonNode m = Json.readTree(meta);
      if (!m.path("ok").asBoolean(false) || !m.path("attempts").isInt() || !m.path("cost_usd").isNumber()) {
        throw new IOException("meta.json does not record a successful reply with its attempts and cost");
      }
      // a session that answered after removing the folder it was to leave harvested nothing, and is replayed so;
      // a folder gone from an entry that harvested one is not a reply to replay
      boolean nothing = m.path(HARVESTED_NOTHING).asBoolean(false);
      if (harvest != null && !nothing && !Files.isDirectory(workspace)) return null;
      // what its session withheld, and anything an entry written before the harvest screened holds: screened now,
      // so that a credential an older entry kept is withheld here too and the replay is refused as the session was
      java.util.TreeSet<String> withheld = new java.util.TreeSet<>();
      for (com.fasterxml.jackson.databind.JsonNode w : m.path(WITHHELD)) withheld.add(w.asText());
      if (Files.isDirectory(workspace)) withheld.addAll(withhold(workspace, PathOrder.list(workspace)));
      journalIfLost(label, base, m);
      return new Reply(label, text, true, m.path("cost_usd").asDouble(), m.path("wall_s").asDouble(),
          m.path("attempts").asInt(), true, spec.kind(), "", response,
          !nothing && Files.isDirectory(workspace) ? workspace : null,
          null, m.path("cost_known").asBoolean(true), tokens(m), List.copyOf(withheld), m.path(REFUSED).asText(""));
    } catch (IOException | RuntimeException e) {
      System.err.println("h2beam: reply cache entry " + response + " is unreadable (" + e.getMessage()
          + "); calling the session again");
      return null;
    }
  }

  /**
   * The tokens a cached reply's meta file records. Without {@code tokens}, its writer did not count them: a session
   * that reported no usage and made no model call through h2beam (a scripted one) called no model; any other
   * (harness2's or an earlier h2beam's, with a model) spent tokens not counted here, which are not known.
   */
  static Tokens tokens(com.fasterxml.jackson.databind.JsonNode meta) {
    if (!meta.path("tokens").isObject()) {
      boolean noModel = meta.path("usage").isNull() || meta.path("usage").isMissingNode();
      return noModel && !meta.has("model_calls") ? Tokens.NONE : Tokens.UNKNOWN;
    }
    Tokens recorded = Tokens.recorded(meta);
    return recorded == null ? Tokens.UNKNOWN : recorded;
  }

  /**
   * A reply in the cache whose session has no journal line: the process was killed between the two ({@link #record}
   * writes the reply first). Its line is appended from the meta file, marked recovered, so the journal still holds
   * every session that ran, once. Only for entries this h2beam wrote (the meta file says when the session held its
   * slot); an entry being recorded by another thread of this process is that thread's to journal.
   */
  private void journalIfLost(String label, String base, com.fasterxml.jackson.databind.JsonNode meta) {
    if (!meta.path("held").isArray() || RECORDING.contains(auditDir.resolve(base))) return;
    String key = base.substring(base.lastIndexOf('.') + 1);
    try {
      // a failed attempt's record of this key is not the session's: the session that answered after it has its own
      // (dogAJ F1)
      Journal.appendIfMissing(auditDir.resolve("sessions.jsonl"), label + "/" + key,
          r -> Boolean.FALSE.equals(r.get("ok")) ? null : r.get("label") + "/" + r.get("key"), () -> {
            Map<String, Object> line = journalLine(label, key, true, meta.path("attempts").asInt(),
                meta.path("cost_usd").asDouble(), meta.path("cost_known").asBoolean(true), tokens(meta), null,
                Json.convert(meta.path("held"), List.class));
            line.put(Journal.RECOVERED, "the reply was in the cache without its journal line: the process that ran"
                + " the session was killed between the two");
            return Json.canonical(line);
          });
    } catch (IOException | RuntimeException e) {
      System.err.println("h2beam: could not journal the cached session " + base + ": " + e.getMessage());
    }
  }

  /**
   * A session's journal line; {@code cost_known} is written only when false (the cost is then what is known), its
   * tokens as {@link Journal#putTokens} has them.
   */
  private static Map<String, Object> journalLine(String label, String key, boolean ok, int attempts, double cost,
      boolean costKnown, Tokens tokens, String error, Object held) {
    Map<String, Object> line = new LinkedHashMap<>();
    line.put("label", label);
    line.put("key", key);
    line.put("ok", ok);
    line.put("attempts", attempts);
    line.put("cost_usd", cost);
    if (!costKnown) line.put("cost_known", false);
    Journal.putTokens(line, tokens);
    if (!ok) line.put("error", error);
    line.put("held", held);
    return line;
  }

  /**
   * Puts the session's evidence in its working folder: the whole of it under {@code cwd/context}, or, for a channel
   * that reads it from memory, only the folder harvested from it (nothing when none is). The view the channel is
   * given holds the same files and bytes either way.
   */
  private EvidenceView place(HeldTree evidence, Path cwd, String harvest) throws IOException {
    if (evidence == null) return EvidenceView.empty();
    Path context = cwd.resolve("context");
    if (!channel.readsEvidenceFromMemory()) {
      evidence.copyTo(context);
    } else if (harvest != null && harvest.startsWith("context/") && harvest.length() > "context/".length()) {
      evidence.copyTo(context, harvest.substring("context/".length()));
    } else if (harvest != null) {
      evidence.copyTo(context);
    }
    return evidence.view();
  }

  /**
   * A harvested folder, the files the harvest placed in it (relative, path order) and why files of it were withheld
   * ({@link #withhold}).
   */
  private record Harvested(Path dir, List<String> files, List<String> withheld) {}

  private Harvested harvest(Path from, String base) throws IOException {
    if (!Files.isDirectory(from)) {
      if (auditDir != null) FileTrees.deleteQuietly(auditDir.resolve(base + ".workspace"));
      return null;
    }
    // every file the session left is screened before it leaves the session's folder, off the editable surface too
    // (a refused proposal's folder is kept as its audit record): a credential is never kept under the runs root
    List<String> withheld = withhold(from, PathOrder.list(from));
    if (auditDir == null) {
      Path keep = Scratch.newDir(scratch, "h2beam-harvest-");
      return new Harvested(keep, FileTrees.copyRefusingLinks(from, keep), withheld);
    }
    Path target = auditDir.resolve(base + ".workspace");
    FileTrees.deleteQuietly(target);
    Path tmp = auditDir.resolve(base + ".workspace.tmp");
    FileTrees.deleteQuietly(tmp);
    // the session folder is used up: its harvested folder is moved out of it, not copied
    List<String> files = FileTrees.moveRefusingLinks(from, tmp);
    Files.move(tmp, target);
    return new Harvested(target, files, withheld);
  }

  /**
   * The meta file's key saying the session answered without the folder it was to leave (it removed or moved it):
   * replayed as a reply with nothing harvested, as the session's was, not run and paid for again on each resume
   * (dogAJ F2); written only then.
   */
  static final String HARVESTED_NOTHING = "harvested_nothing";

  /** The meta file's key listing why files of the harvested folder were withheld; written only when some were. */
  static final String WITHHELD = "withheld";

  /**
   * The meta file's key holding why the channel refused the session's edits ({@link Reply#refused}); written only
   * when it did, so that a replay refuses them again (h2beam's own key, which harness2 reads past).
   */
  static final String REFUSED = "refused";

  /** The most bytes of one harvested file the credential screen reads; a larger file is withheld unscreened. */
  static final long SCREENED_BYTES = 8L << 20;

  /**
   * Replaces the text of every file of {@code listing} (of {@code dir}) that holds a credential by the credential
   * screen's rules ({@link CredentialScreen}), or that is too large or cannot be read to be screened, by a note saying
   * it was withheld and why, and returns why, one entry per finding ({@code .env line 1, field OPENAI_API_KEY (sk-…):
   * a literal credential}: the file, line and field, never the value), in path order. A file or folder whose name
   * holds a key is deleted instead, an empty folder too, and the file named with the key redacted. A file the session
   * left is kept in the audit trail and replayed from it; the note never holds what the screen finds, so a folder
   * withheld once screens clean.
   */
  static List<String> withhold(Path dir, PathOrder.Listing listing) throws IOException {
    List<String> out = new ArrayList<>();
    List<String> keyNamed = new ArrayList<>();
    for (String file : new java.util.TreeSet<>(listing.files())) {
      Path f = dir.resolve(file);
      String rel = CredentialScreen.redact(file);
      Optional<String> named = CredentialScreen.inPath(file);
      if (named.isPresent()) {
        // a name cannot hold a note in place of the key: the file goes, and the record names it redacted
        Files.deleteIfExists(f);
        out.add(rel + ": its name holds what looks like a credential (" + named.get() + ")");
        keyNamed.add(file);
        continue;
      }
      List<String> why;
      String where;
      try {
        long size = Files.size(f);
        if (size > SCREENED_BYTES) {
          why = List.of(rel + ": " + size + " bytes, more than the " + (SCREENED_BYTES >> 20) + " MiB screened for"
              + " credentials");
          where = "it is too large to screen for credentials";
        } else {
          String text = new String(Files.readAllBytes(f), StandardCharsets.UTF_8);
          List<CredentialScreen.Hit> hits = CredentialScreen.hits(text);
          if (hits.isEmpty()) continue;
          why = new ArrayList<>();
          List<String> at = new ArrayList<>();
          for (CredentialScreen.Hit h : hits) {
            why.add(rel + " " + h.where() + ": a literal credential");
            at.add("line " + h.line() + (h.field().isEmpty() ? "" : ", field " + h.field()));
          }
          where = "it held what looks like a literal credential (" + String.join("; ", at) + ")";
        }
      } catch (IOException e) {
        why = List.of(rel + ": unreadable (" + e.getClass().getSimpleName() + "), not screened for credentials");
        where = "it could not be read to screen it for credentials";
      }
      Files.deleteIfExists(f);
      Files.writeString(f, "[h2beam withheld this file's text: " + where + ". A proposal holding it is refused;"
          + " read secrets from the environment at run time.]\n", StandardCharsets.UTF_8);
      out.addAll(why);
    }
    removeKeyNamedFolders(dir, keyNamed, listing.bare());
    return out;
  }

  /**
   * Deletes the outermost folder of each of {@code keyNamed} (files deleted above) whose own path holds a key, and
   * of each of {@code bare} (folders no file lies under, an empty one the likeliest) that holds one: the folder's
   * name would otherwise keep the key in the audit trail, and a harvest moves a session's folder whole, empty
   * folders included. Found from the listing the screen already made, not by walking the folder again: every
   * session's harvest comes here, and a second walk of its folder was a few percent of a sweep's CPU.
   */
  private static void removeKeyNamedFolders(Path dir, List<String> keyNamed, List<String> bare) {
    for (String file : keyNamed) removeOutermostKeyNamed(dir, file.substring(0, Math.max(0, file.lastIndexOf('/'))));
    for (String folder : bare) {
      if (CredentialScreen.inPath(folder).isPresent()) removeOutermostKeyNamed(dir, folder);
    }
  }

  /** Deletes the outermost of {@code folder} (a relative path) and the folders above it whose path holds a key. */
  private static void removeOutermostKeyNamed(Path dir, String folder) {
    if (folder.isEmpty()) return;
    String[] parts = folder.split("/");
    StringBuilder prefix = new StringBuilder();
    for (int i = 0; i < parts.length; i++) {
      prefix.append(i == 0 ? "" : "/").append(parts[i]);
      if (CredentialScreen.inPath(prefix.toString()).isPresent()) {
        FileTrees.deleteQuietly(dir.resolve(prefix.toString()));
        return;
      }
    }
  }

  /**
   * The audit file beside a session's mission that holds the messages of its last model call exactly as sent
   * ({@link SessionResult#PROMPT}), for a channel that builds the prompt itself.
   */
  public static final String PROMPT_FILE = ".prompt.json";

  /**
   * Writes the audit files; the response file is written last so a crash never leaves a half cache entry. The meta
   * file carries what the last session reported about itself (token usage, the model id the server named, its finish
   * reason), null where it reported nothing; a reply served from the cache keeps the meta of the session that made it.
   */
  /**
   * Records a session in the audit folder (its cache entry and journal line); {@code harvestedNothing}: it answered
   * without the folder it was to leave ({@link #HARVESTED_NOTHING}).
   */
  private void audit(String base, String mission, String system, Reply reply, Map<String, Object> reported,
      List<Map<String, String>> held, boolean harvestedNothing) {
    if (auditDir == null) return;
    try {
      // a session that ran is recorded whole even while the runner cancels this thread
      Uninterruptible.run(() -> record(base, mission, system, reply, reported, held, harvestedNothing));
    } catch (IOException e) {
      System.err.println("h2beam: could not write the audit trail under " + auditDir + ": " + e.getMessage());
    }
  }

  /** The last attempt's self-report with the calls of every attempt in place of its own (unchanged when null). */
  private static Map<String, Object> withCalls(Map<String, Object> reported, List<Map<String, Object>> calls) {
    if (calls == null) return reported;
    Map<String, Object> m = new LinkedHashMap<>(reported);
    m.put(SessionResult.MODEL_CALLS, List.copyOf(calls));
    return m;
  }

  private void record(String base, String mission, String system, Reply reply, Map<String, Object> reported,
      List<Map<String, String>> held, boolean harvestedNothing) throws IOException {
    Path entry = auditDir.resolve(base);
    RECORDING.add(entry);
    try {
      recordEntry(base, mission, system, reply, reported, held, harvestedNothing);
    } finally {
      RECORDING.remove(entry);
    }
  }

  private void recordEntry(String base, String mission, String system, Reply reply, Map<String, Object> reported,
      List<Map<String, String>> held, boolean harvestedNothing) throws IOException {
    Trees.makeFolder(auditDir);
    AtomicFiles.writeString(auditDir.resolve(base + ".mission.md"), mission);
    if (!system.isEmpty()) AtomicFiles.writeString(auditDir.resolve(base + ".system.md"), system);
    Map<String, Object> meta = new LinkedHashMap<>();
    meta.put("label", reply.label());
    meta.put("ok", reply.ok());
    meta.put("channel", spec.kind());
    meta.put("model", spec.model());
    meta.put("effort", spec.effort());
    meta.put("attempts", reply.attempts());
    meta.put("wall_s", reply.wallS());
    meta.put("cost_usd", reply.costUsd());
    // harness2's meta keys stay as they are where every call was priced
    if (!reply.costKnown()) meta.put("cost_known", false);
    // a session that reported no usage and no model calls and spent no tokens writes neither, as harness2's scripted
    // sessions do: read back, such a file says the session called no model (tokens(JsonNode))
    boolean noModel = reported.get(SessionResult.USAGE) == null && !reported.containsKey(SessionResult.MODEL_CALLS);
    if (!(noModel && reply.tokens().equals(Tokens.NONE))) meta.put("tokens", reply.tokens().toJson());
    if (!reply.tokens().known()) meta.put("tokens_known", false);
    meta.put("error", reply.error());
    // why files of the harvested folder hold a note in place of their text (withhold): only when some do
    if (!reply.withheld().isEmpty()) meta.put(WITHHELD, reply.withheld());
    if (!reply.refused().isEmpty()) meta.put(REFUSED, reply.refused());
    if (harvestedNothing) meta.put(HARVESTED_NOTHING, true);
    meta.put("usage", reported.get(SessionResult.USAGE));
    meta.put("model_id", reported.get(SessionResult.MODEL_ID));
    meta.put("finish_reason", reported.get(SessionResult.FINISH_REASON));
    // each model call of every attempt, as the chat client or an agent CLI's relay recorded it
    if (reported.containsKey(SessionResult.MODEL_CALLS)) {
      meta.put("model_calls", reported.get(SessionResult.MODEL_CALLS));
    }
    // when each attempt held a session slot, as in the journal line: a line lost to kill -9 is rebuilt from here
    meta.put("held", held);
    AtomicFiles.writeString(auditDir.resolve(base + ".meta.json"), Json.pretty(meta) + "\n");
    if (reported.get(SessionResult.PROMPT) instanceof List<?> prompt) {
      // what the model was shown, whole (the mission file holds the mission alone): written before the response,
      // which is the cache entry's last file
      AtomicFiles.writeString(auditDir.resolve(base + PROMPT_FILE), Json.pretty(shownPrompt(prompt)) + "\n");
    } else {
      // an earlier attempt's of this entry would not be this session's
      Files.deleteIfExists(auditDir.resolve(base + PROMPT_FILE));
    }
    AtomicFiles.writeString(auditDir.resolve(base + ".response.md"), reply.text());
    String key = base.substring(base.lastIndexOf('.') + 1);
    Journal.append(auditDir.resolve("sessions.jsonl"), reply.label() + "/" + key, Json.canonical(journalLine(
        reply.label(), key, reply.ok(), reply.attempts(), reply.costUsd(), reply.costKnown(), reply.tokens(),
        reply.error(), held)));
  }

  /**
   * The prompt file's content: the messages as sent, except each line that holds a credential (a refused reply sent
   * back to the model may hold anything: the reply text h2beam keeps never quotes one, and neither does this file),
   * which becomes a note saying where, never what; {@code withheld} names those lines.
   */
  static Map<String, Object> shownPrompt(List<?> messages) {
    List<Object> kept = new ArrayList<>();
    List<String> withheld = new ArrayList<>();
    for (int i = 0; i < messages.size(); i++) {
      if (!(messages.get(i) instanceof Map<?, ?> m) || !(m.get("content") instanceof String content)) {
        kept.add(messages.get(i));
        continue;
      }
      List<CredentialScreen.Hit> hits = CredentialScreen.hits(content);
      if (hits.isEmpty()) {
        kept.add(m);
        continue;
      }
      String[] lines = content.split("\n", -1);
      for (CredentialScreen.Hit h : hits) {
        String where = "message " + (i + 1) + " (" + m.get("role") + ") " + h.where();
        lines[h.line() - 1] = "[withheld by h2beam: a literal credential, " + where + "]";
        withheld.add(where);
      }
      Map<String, Object> one = new LinkedHashMap<>();
      m.forEach((k, v) -> one.put(String.valueOf(k), v));
      one.put("content", String.join("\n", lines));
      kept.add(one);
    }
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("messages", kept);
    if (!withheld.isEmpty()) out.put("withheld", withheld);
    return out;
  }

  /**
   * The reply-cache key: the first 16 hex of SHA-256 over label, mission, system text and, when evidence is given, its
   * absolute path and every file (relative path and bytes) in Python path order.
   */
  public static String cacheKey(String label, String mission, String system, Path contextDir) {
    Path root = contextDir == null ? null : contextDir.toAbsolutePath().normalize();
    return cacheKey(label, mission, system, root != null && Files.isDirectory(root)
        ? HeldTree.read(root, PathOrder.list(root), 0) : null);
  }

  /** The same key from the evidence already listed and read ({@link HeldTree}); null without evidence. */
  public static String cacheKey(String label, String mission, String system, HeldTree evidence) {
    MessageDigest sha = Hashes.digest("SHA-256");
    for (String part : new String[] {label, mission, system}) {
      sha.update(part.getBytes(StandardCharsets.UTF_8));
      sha.update((byte) 0);
    }
    if (evidence != null) {
      sha.update(evidence.root().toString().getBytes(StandardCharsets.UTF_8));
      sha.update((byte) 0);
      List<String> files = evidence.files();
      for (int i = 0; i < files.size(); i++) {
        sha.update(files.get(i).getBytes(StandardCharsets.UTF_8));
        sha.update((byte) 0);
        try {
          evidence.update(sha, i);
        } catch (IOException e) {
          sha.update(("<unreadable:" + e.getClass().getSimpleName() + ":" + e.getMessage() + ">")
              .getBytes(StandardCharsets.UTF_8));
        }
        sha.update((byte) 0);
      }
    }
    return Hashes.hex(sha.digest()).substring(0, 16);
  }

  /** The label with every run of characters outside {@code [A-Za-z0-9_.-]} replaced by {@code _}. */
  static String safe(String label) {
    return UNSAFE.matcher(label).replaceAll("_");
  }

  private static final java.util.regex.Pattern UNSAFE = java.util.regex.Pattern.compile("[^A-Za-z0-9_.\\-]+");

  private static void sleep(Duration d) {
    try {
      Thread.sleep(d.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
