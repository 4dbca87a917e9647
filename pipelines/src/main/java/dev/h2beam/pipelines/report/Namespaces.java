package dev.h2beam.pipelines.report;

import dev.h2beam.adapters.model.Namespace;
import dev.h2beam.pipelines.FolderFlags;
import dev.h2beam.pipelines.FolderGlob;
import dev.h2beam.pipelines.UsageError;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Resolves {@code --namespaces} (directories or globs, comma separated) to summary namespaces. A sequential or gated
 * namespace stands for its {@code agg} sibling, where its judged rows and summaries live; a glob skips directories
 * that are not namespaces ({@code _audit}, {@code _sweeps}, {@code _report}); a named directory must be one.
 */
final class Namespaces {
  private Namespaces() {}

  static List<NamespaceRef> resolve(List<String> specs, Path cwd) {
    return resolve("--namespaces", specs, cwd);
  }

  /** {@code flag}: the option the specs were given in ({@code --namespaces} or {@code --versus}), named in errors. */
  static List<NamespaceRef> resolve(String flag, List<String> specs, Path cwd) {
    // by path, as a glob lists them: the same namespaces named in another order (a comma list typed otherwise, two
    // globs swapped) give the same report, byte for byte
    Map<String, NamespaceRef> out = new TreeMap<>();
    for (String spec : specs) {
      if (FolderGlob.isGlob(spec)) {
        List<NamespaceRef> found = new ArrayList<>();
        for (Path dir : FolderGlob.folders(cwd.resolve(spec).toAbsolutePath().normalize())) {
          NamespaceRef.parse(dir).ifPresent(found::add);
        }
        if (found.isEmpty()) {
          throw new UsageError(flag + ": '" + spec + "' matched no namespace directory (names like"
              + " demo-oc-agg2 or demo-oc-agg2-s7); check the path, and quote globs so the shell does not expand them");
        }
        for (NamespaceRef ref : found) out.putIfAbsent(ref.summary().dir(), ref.summary());
      } else {
        Path dir = cwd.resolve(spec).toAbsolutePath().normalize();
        if (!Files.isDirectory(dir)) {
          throw new UsageError(flag + ": " + dir + " is not a directory; name a namespace folder such as"
              + " runs/demo-oc-agg2, or a glob");
        }
        NamespaceRef ref = NamespaceRef.parse(dir).orElseThrow(() -> new UsageError(flag + ": " + dir
            + " is not a namespace (<bench>-<substrate>-<" + String.join("|", Namespace.MODES)
            + "><k>[-s<seed>]); " + FolderFlags.insteadOfNamespace(dir)));
        out.putIfAbsent(ref.summary().dir(), ref.summary());
      }
    }
    // two folders of one namespace name (two runs roots' wordy-oc-agg2) would be pooled as one namespace's rows, and
    // their seeds read as replicates: refused, naming both
    Map<String, String> byName = new LinkedHashMap<>();
    for (NamespaceRef ref : out.values()) {
      String name = Path.of(ref.dir()).getFileName().toString();
      String other = byName.putIfAbsent(name, ref.dir());
      if (other != null) {
        throw new UsageError(flag + ": " + other + " and " + ref.dir() + " are both namespace " + name
            + ", which a report would pool as one; report one runs root's at a time (replicates of one run differ"
            + " in their seed, -s<seed>), or compare the gated methods of two runs roots with --versus");
      }
    }
    return List.copyOf(out.values());
  }
}
