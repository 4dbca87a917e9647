package dev.h2beam.demo;

import com.fasterxml.jackson.databind.JsonNode;
import dev.h2beam.transforms.sweep.ProgressBoard;
import java.io.IOException;
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

  /**
   * The usage of the run's workers, from the boards under {@code progressFolder} ({@link ProgressBoard#read}), but the
   * board of {@code client} (this process's writer name): a client that replays a finished sweep itself writes a
   * board too, and its CPU is already the client's. Counting it as a worker counted the client twice.
   */
  static WorkerUsage read(Path progressFolder, String token, String client) throws IOException {
    ProgressBoard.Boards read = ProgressBoard.read(progressFolder, token);
    List<Board> boards = new ArrayList<>();
    List<String> unknown = new ArrayList<>();
    for (JsonNode b : read.boards()) {
      String worker = b.path("worker").asText();
      if (worker.equals(client)) continue;
      ProgressBoard.Usage u = ProgressBoard.Usage.of(b);
      if (u == null) unknown.add(worker);
      else boards.add(new Board(worker, u.cpuSeconds(), u.childCpuSeconds(), u.peakRssKb()));
    }
    // a damaged board's run cannot be told, so neither can the sum
    unknown.addAll(read.unreadable());
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
