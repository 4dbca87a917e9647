package dev.h2beam.pipelines.sweep;

import dev.h2beam.adapters.files.AtomicFiles;
import dev.h2beam.adapters.files.Json;
import dev.h2beam.adapters.model.SurfaceSpec;
import dev.h2beam.pipelines.UsageError;
import dev.h2beam.transforms.library.Library;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * A library belongs to the runs root whose sweep writes it. Its entries name their run only within a runs root
 * ({@code signed_sums-oc-agg2/ledgers/april/agg1}), so a second runs root sweeping the same namespaces with
 * {@code --libraryRoot} naming the first one's library would replace its lessons, unseen. The first sweep records
 * its runs root, by the identity {@link BenchRootClaim} gives it, in {@code <library root>/.h2beam/runs-root.json};
 * a sweep from any other runs root is refused before anything runs. The file sits beside the modes' folders, where
 * harness2 reads nothing ({@code <library root>/<mode>/<domain>/...} is its layout), so the library stays its.
 *
 * <p>A library an older h2beam wrote records no runs root. It is adopted by the sweep that finds it empty, or inside
 * its own runs root (the default {@code <runs root>/_library/...}), or whose entries' runs are this runs root's
 * rollouts; any other sweep is refused, since it cannot tell the library is its own.
 */
final class LibraryClaim {
  private LibraryClaim() {}

  /** The record of the runs root the library belongs to, under the library root. */
  static Path claimFile(Path libraryRoot) {
    return libraryRoot.resolve(".h2beam").resolve("runs-root.json");
  }

  /**
   * Records that {@code libraryRoot} belongs to {@code runsRoot}, or refuses when it belongs to another. Called with
   * both folders' writer locks held. {@code executions} is where this runs root keeps its rollouts, each at
   * {@code <executions>/<run id>}; {@code modes} the library's mode folders.
   */
  static void claim(Path libraryRoot, Path runsRoot, Path executions, Collection<String> modes, SurfaceSpec surface)
      throws IOException {
    String stored = BenchRootClaim.storedIdentity(runsRoot);
    String refused = refusal(libraryRoot, runsRoot, executions, modes, surface);
    if (refused != null) throw new UsageError(refused);
    Held held = read(claimFile(libraryRoot));
    if (held != null && held.runsRoot().equals(runsRoot) && held.libraryRoot().equals(libraryRoot)) return;
    String id = BenchRootClaim.writeIdentity(runsRoot, stored != null ? stored : UUID.randomUUID().toString());
    Map<String, Object> claim = new LinkedHashMap<>();
    claim.put("runs_root", runsRoot.toString());
    claim.put("runs_root_id", id);
    claim.put("library_root", libraryRoot.toString());
    Files.createDirectories(claimFile(libraryRoot).getParent());
    AtomicFiles.writeString(claimFile(libraryRoot), Json.pretty(claim) + "\n");
  }

  /** Why a sweep from {@code runsRoot} would be refused the library (the dry run's look: writes nothing), or null. */
  static String refusal(Path libraryRoot, Path runsRoot, Path executions, Collection<String> modes,
      SurfaceSpec surface) {
    String id = BenchRootClaim.storedIdentity(runsRoot);
    Path file = claimFile(libraryRoot);
    Held held;
    try {
      held = read(file);
    } catch (UsageError e) {
      return e.getMessage();
    }
    if (held == null) return adoption(libraryRoot, runsRoot, executions, modes, surface);
    String fix = " To resume that run, sweep with --runsRoot=" + held.runsRoot() + "; otherwise give this run a"
        + " library of its own (a new folder, or leave --libraryRoot out for its default).";
    if (!held.runsRootId().equals(id)) {
      boolean gone = !Files.exists(held.runsRoot());
      String same = held.runsRoot().equals(runsRoot) ? " (a runs root of that name that was deleted and made again)"
          : "";
      return "--libraryRoot=" + libraryRoot + " is the library of the runs root " + held.runsRoot() + same + " ("
          + file + "), not of this sweep's runs root " + runsRoot + ": this sweep would replace its lessons with its"
          + " own, and its tasks would read lessons their own run never learned." + fix
          + (gone || !same.isEmpty() ? " If that run was deleted on purpose, delete " + libraryRoot
              + " to start afresh" : "");
    }
    // the same runs root at another path: moved, or a copy beside an original that still holds the identity
    if (!held.runsRoot().equals(runsRoot) && held.libraryRoot().equals(libraryRoot)
        && id.equals(BenchRootClaim.storedIdentity(held.runsRoot()))) {
      return "the runs root " + runsRoot + " is a copy of " + held.runsRoot() + " (both hold the identity in "
          + BenchRootClaim.idFile(runsRoot) + "), and --libraryRoot=" + libraryRoot + " is that runs root's library ("
          + file + "): this sweep would replace its lessons." + fix;
    }
    return null;
  }

  /**
   * Why a library that records no runs root (an older h2beam's) is not adopted by this runs root, or null when it
   * is: it holds no entry, lies inside the runs root, or every domain's first entry names a run this runs root
   * rolled out.
   */
  private static String adoption(Path libraryRoot, Path runsRoot, Path executions, Collection<String> modes,
      SurfaceSpec surface) {
    if (libraryRoot.startsWith(runsRoot)) return null;
    List<String> strangers = new ArrayList<>();
    for (String m : modes) {
      Library.firstRuns(libraryRoot.resolve(m), surface).forEach((experience, run) -> {
        if (run.isEmpty() || !Files.isDirectory(executions.resolve(run))) {
          strangers.add(experience + " (run `" + run + "`)");
        }
      });
    }
    if (strangers.isEmpty()) return null;
    return "--libraryRoot=" + libraryRoot + " records no runs root it belongs to (an h2beam older than that record"
        + " wrote it), and the runs its entries name are not rollouts of this runs root " + runsRoot + " (under "
        + executions + "):\n  " + String.join("\n  ", strangers) + "\nIt is taken to be another run's library: this"
        + " sweep would replace its lessons. Sweep with the --runsRoot whose library it is (that sweep records it as"
        + " its own), or give this run a library of its own (a new folder, or leave --libraryRoot out)";
  }

  /** A record as written: the owner's identity and path, and where the library was then. */
  private record Held(String runsRootId, Path runsRoot, Path libraryRoot) {}

  private static Held read(Path file) {
    if (!Files.exists(file)) return null;
    try {
      Map<String, Object> m = Json.readMap(file);
      if (m.get("runs_root_id") instanceof String id && m.get("runs_root") instanceof String root
          && m.get("library_root") instanceof String lib) {
        return new Held(id, Path.of(root), Path.of(lib));
      }
    } catch (IOException e) {
      // named below with the same advice as a record missing its fields
    }
    throw new UsageError(file + " is not a record h2beam can read (it names the runs root this library belongs to, as"
        + " {\"runs_root\": ..., \"runs_root_id\": ..., \"library_root\": ...}): restore it, or delete it if you know"
        + " that only this runs root uses the library");
  }
}
