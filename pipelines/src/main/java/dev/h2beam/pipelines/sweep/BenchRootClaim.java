package dev.h2beam.pipelines.sweep;

import dev.h2beam.adapters.files.AtomicFiles;
import dev.h2beam.adapters.files.Json;
import dev.h2beam.pipelines.UsageError;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;

/**
 * A benchmark folder that keeps its rollouts and libraries under itself (the demo's, the synthetic benchmark's) belongs
 * to one runs root. A second runs root sweeping the same namespaces there would take the first one's completed
 * rollouts as its own (its journal would call them recovered from a killed process, its ledgers would count them
 * again) and its tasks would read lessons the first run learned. The first sweep claims the folder for its runs root;
 * a sweep from any other runs root is refused, naming the owner and what to do.
 *
 * <p>A runs root is known by an identity written once under it ({@code .h2beam/runs-root-id}), so a runs root that
 * was moved, or moved together with its benchmark folder, keeps its claim; a copy of it left beside the original does
 * not. A benchmark folder written before claims were recorded is claimed by its next sweep.
 */
final class BenchRootClaim {
  private BenchRootClaim() {}

  /** The runs root's identity, under the runs root. */
  static Path idFile(Path runsRoot) {
    return runsRoot.resolve(".h2beam").resolve("runs-root-id");
  }

  /** The claim, under the benchmark folder. */
  static Path claimFile(Path benchRoot) {
    return benchRoot.resolve(".h2beam").resolve("runs-root.json");
  }

  /**
   * Claims {@code benchRoot} for {@code runsRoot}, or refuses when another runs root holds it. Called with both
   * folders' writer locks held, so no other sweep claims either meanwhile.
   */
  static void claim(Path benchRoot, Path runsRoot) throws IOException {
    // a runs root without an identity gets one only when its claim is taken: a refused sweep writes nothing
    String stored = storedIdentity(runsRoot);
    String id = stored != null ? stored : UUID.randomUUID().toString();
    Path file = claimFile(benchRoot);
    Held held = read(file, benchRoot);
    String refused = refusal(benchRoot, runsRoot, id, held);
    if (refused != null) throw new UsageError(refused);
    if (held != null && held.runsRoot().equals(runsRoot) && held.benchRoot().equals(benchRoot)) return;
    if (stored == null) id = writeIdentity(runsRoot, id);
    Map<String, Object> claim = new LinkedHashMap<>();
    claim.put("runs_root", runsRoot.toString());
    claim.put("runs_root_id", id);
    claim.put("bench_root", benchRoot.toString());
    Files.createDirectories(file.getParent());
    AtomicFiles.writeString(file, Json.pretty(claim) + "\n");
  }

  /**
   * Why a sweep from {@code runsRoot} would be refused {@code benchRoot} (the dry run's look, which writes nothing),
   * or null when it would not; a claim h2beam cannot read is such a reason too.
   */
  static String refusal(Path benchRoot, Path runsRoot) {
    String stored = storedIdentity(runsRoot);
    try {
      return refusal(benchRoot, runsRoot, stored == null ? "" : stored, read(claimFile(benchRoot), benchRoot));
    } catch (UsageError | IOException e) {
      return e.getMessage();
    }
  }

  /** A claim as recorded: the owner's identity and path, and where the benchmark folder was then. */
  private record Held(String runsRootId, Path runsRoot, Path benchRoot) {}

  private static String refusal(Path benchRoot, Path runsRoot, String id, Held held) {
    if (held == null) return null;
    Path file = claimFile(benchRoot);
    if (!held.runsRootId().equals(id)) return othersMessage(benchRoot, runsRoot, held.runsRoot(), file);
    // the same runs root at another path: moved (its old path no longer holds it), or moved together with this
    // folder; a copy beside an original that still holds the identity shares the original's rollouts
    if (!held.runsRoot().equals(runsRoot) && held.benchRoot().equals(benchRoot)
        && id.equals(storedIdentity(held.runsRoot()))) {
      return copyMessage(benchRoot, runsRoot, held.runsRoot(), file);
    }
    return null;
  }

  private static String othersMessage(Path benchRoot, Path runsRoot, Path heldRoot, Path file) {
    boolean gone = !Files.exists(heldRoot);
    String same = heldRoot.equals(runsRoot) ? " (a runs root of that name that was deleted and made again)" : "";
    return "--benchRoot=" + benchRoot + " keeps the rollouts and libraries of the runs root " + heldRoot + same
        + " (" + file + "). This sweep's runs root " + runsRoot + " would take them as its own: its journals would"
        + " call them recovered, its ledgers would count them again, and its tasks would read lessons that run"
        + " learned. Sweep with --runsRoot=" + heldRoot + ", or give this runs root a benchmark folder of its own"
        // h2beam demo keeps its benchmark in --output and refuses --benchRoot (dogAG A9)
        + " (a new --benchRoot; with h2beam demo, a new --output)." + (gone || !same.isEmpty()
            ? " If that run was deleted on purpose, delete " + benchRoot.resolve("executions") + ", "
                + benchRoot.resolve("library") + " and " + file + " to start afresh"
            : "");
  }

  private static String copyMessage(Path benchRoot, Path runsRoot, Path heldRoot, Path file) {
    return "the runs root " + runsRoot + " is a copy of " + heldRoot + " (both hold the identity in "
        + idFile(runsRoot) + "), and --benchRoot=" + benchRoot + " keeps that runs root's rollouts and libraries ("
        + file + "): this sweep would take them as its own. Sweep with --runsRoot=" + heldRoot + ", or copy the"
        + " benchmark folder along with the runs root and sweep the copies together";
  }

  /** Writes {@code fresh} as the runs root's identity unless it has one; returns the identity it has then. */
  static String writeIdentity(Path runsRoot, String fresh) throws IOException {
    Path f = idFile(runsRoot);
    Files.createDirectories(f.getParent());
    AtomicFiles.createIfAbsent(f, fresh + "\n");
    return Files.readString(f, StandardCharsets.UTF_8).strip();
  }

  static String storedIdentity(Path runsRoot) {
    try {
      String id = Files.readString(idFile(runsRoot), StandardCharsets.UTF_8).strip();
      return id.isEmpty() ? null : id;
    } catch (IOException e) {
      return null;
    }
  }

  /** The claim at {@code file}, or null for none; one that names no bench root was made where it is now. */
  private static Held read(Path file, Path benchRoot) throws IOException {
    if (!Files.exists(file)) return null;
    try {
      Map<String, Object> m = Json.readMap(file);
      if (m.get("runs_root_id") instanceof String id && m.get("runs_root") instanceof String root) {
        return new Held(id, Path.of(root), m.get("bench_root") instanceof String b ? Path.of(b) : benchRoot);
      }
    } catch (IOException e) {
      // reported below with the same advice as a claim missing its fields
    }
    throw new UsageError(file + " is not a claim h2beam can read (it names the runs root that owns this benchmark"
        + " folder's rollouts, as {\"runs_root\": ..., \"runs_root_id\": ...}): restore it, or delete it if you know"
        + " that only one runs root uses this benchmark folder");
  }
}
