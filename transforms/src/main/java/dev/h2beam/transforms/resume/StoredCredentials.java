package dev.h2beam.transforms.resume;

import dev.h2beam.adapters.files.Json;
import dev.h2beam.adapters.model.SurfaceSpec;
import dev.h2beam.transforms.library.Library;
import dev.h2beam.transforms.safety.CredentialScreen;
import dev.h2beam.transforms.sweep.SweepConfig;
import dev.h2beam.transforms.tree.TreeIO;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.stream.Stream;

/**
 * Screens the state a resumed sweep would reuse for literal credentials: every stored harness of every task of the
 * sweep's namespaces (the proposals, candidates and adopted harnesses under {@code <task>/harnesses/}), the lessons
 * and reasons its summaries recorded (a resumed task replays them into the library), and every library entry. State
 * written before the credential screen existed, or edited by hand since, may hold a key; a resume that reused it
 * would store it again and show it to later improvers, so the sweep refuses to start and names each file and field.
 */
public final class StoredCredentials {
  private StoredCredentials() {}

  /** One problem per credential found, naming the file, line and field; empty when the stored state is clean. */
  public static List<String> findings(SweepConfig c, SurfaceSpec surface) {
    List<String> out = new ArrayList<>();
    TreeSet<Path> namespaces = new TreeSet<>();
    for (String m : c.modes()) namespaces.add(c.runs().resolve(c.namespace(m).toString()));
    for (Path ns : namespaces) {
      for (Path task : folders(ns)) {
        for (Path harness : folders(task.resolve("harnesses"))) {
          for (String f : CredentialScreen.findings(TreeIO.read(surface, harness, null))) out.add(harness + "/" + f);
        }
        Path summary = task.resolve("summary.json");
        if (Files.isRegularFile(summary)) out.addAll(inSummary(summary));
      }
    }
    for (String m : c.modes()) {
      Path modeRoot = Path.of(c.libraryRoot()).resolve(m);
      for (Path domain : folders(modeRoot)) {
        out.addAll(new Library(modeRoot, domain.getFileName().toString(), surface).credentials());
      }
    }
    return out;
  }

  /** The credentials in a summary's recorded lessons and selection reasons, named by their JSON field. */
  @SuppressWarnings("unchecked")
  private static List<String> inSummary(Path summary) {
    Map<String, Object> s;
    try {
      s = Json.readMap(summary);
    } catch (IOException e) {
      return List.of(); // an unreadable summary re-runs its task; the resume check says so
    }
    Map<String, String> fields = new LinkedHashMap<>();
    if (s.get("selections") instanceof Map<?, ?> sels) {
      for (Map.Entry<?, ?> e : sels.entrySet()) {
        if (!(e.getValue() instanceof Map<?, ?> sel)) continue;
        String at = "selections." + e.getKey();
        if (sel.get("why") instanceof String why) fields.put(at + ".why", why);
        if (sel.get("experience") instanceof Map<?, ?> exp) {
          for (Map.Entry<?, ?> x : exp.entrySet()) fields.put(at + ".experience." + x.getKey(), String.valueOf(x.getValue()));
        }
      }
    }
    List<String> out = new ArrayList<>();
    fields.forEach((field, text) -> {
      for (CredentialScreen.Hit h : CredentialScreen.hits(text)) {
        out.add(summary + " field " + field + " " + h.where() + " holds what looks like a literal credential");
      }
    });
    return out;
  }

  private static List<Path> folders(Path dir) {
    if (!Files.isDirectory(dir)) return List.of();
    try (Stream<Path> s = Files.list(dir)) {
      return s.filter(Files::isDirectory).filter(p -> !p.getFileName().toString().startsWith(".")).sorted().toList();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot list " + dir, e);
    }
  }
}
