package dev.h2beam.demo;

import com.fasterxml.jackson.databind.JsonNode;
import dev.h2beam.adapters.files.Json;
import dev.h2beam.transforms.sweep.ProgressBoard;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * What a run's workers used, from their progress boards ({@link ProgressBoard}): where the sweep ran on a cluster
 * whose workers are other processes, the bench's own process measures only its client. Boards of other runs (another
 * root token) are passed over.
 *
 * @param workers the boards of this run, one per worker process, in the order of their names
 * @param unknown the workers whose board does not tell its CPU (an older h2beam, or a platform without /proc); their
 *     usage is unknown, so the sums are too
 */
record WorkerUsage(List<Board> workers, List<String> unknown) {

  /** One worker's board: its name ({@code host-pid}), CPU since it opened the sweep, its peak resident memory. */
  record Board(String worker, double cpuSeconds, double childCpuSeconds, long peakRssKb) {}

  /** The boards under {@code progressFolder} written for the run whose root token is {@code token}. */
  static WorkerUsage read(Path progressFolder, String token) throws IOException {
    List<Path> files = new ArrayList<>();
    if (Files.isDirectory(progressFolder)) {
      try (DirectoryStream<Path> ds = Files.newDirectoryStream(progressFolder, "*.json")) {
        ds.forEach(files::add);
      }
    }
    files.sort(null);
    List<Board> boards = new ArrayList<>();
    List<String> unknown = new ArrayList<>();
    for (Path f : files) {
      JsonNode b;
      try {
        b = Json.readTree(f);
      } catch (IOException e) {
        // a board is replaced whole, so this one was damaged: whose run it is cannot be told, so neither can the sum
        unknown.add(f.getFileName() + " (unreadable: " + e.getMessage() + ")");
        continue;
      }
      if (token.isEmpty() || !token.equals(b.path("root_token").asText())) continue;
      String worker = b.path("worker").asText(f.getFileName().toString());
      JsonNode u = b.path("usage");
      if (!u.path("cpu_s").isNumber() || !u.path("children_cpu_s").isNumber()) {
        unknown.add(worker);
        continue;
      }
      boards.add(new Board(worker, u.path("cpu_s").asDouble(), u.path("children_cpu_s").asDouble(),
          u.path("rss_peak_kb").isNumber() ? u.path("rss_peak_kb").asLong() : -1));
    }
    return new WorkerUsage(List.copyOf(boards), List.copyOf(unknown));
  }

  /** Whether any worker of this run wrote a board: none when the client replayed a finished sweep itself. */
  boolean any() {
    return !workers.isEmpty() || !unknown.isEmpty();
  }

  /** Whether every worker's CPU is known. */
  boolean known() {
    return unknown.isEmpty();
  }

  double cpuSeconds() {
    return workers.stream().mapToDouble(Board::cpuSeconds).sum();
  }

  double childCpuSeconds() {
    return workers.stream().mapToDouble(Board::childCpuSeconds).sum();
  }

  /** Each worker's peak resident memory in MiB, "unknown" where its board does not tell. */
  String peaks() {
    List<String> out = new ArrayList<>();
    for (Board b : workers) {
      out.add(b.worker() + " " + (b.peakRssKb() < 0 ? "unknown"
          : String.format(Locale.ROOT, "%.1f MiB", b.peakRssKb() / 1024.0)));
    }
    for (String w : unknown) out.add(w + " unknown");
    return String.join(", ", out);
  }
}
