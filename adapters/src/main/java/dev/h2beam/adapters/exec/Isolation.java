package dev.h2beam.adapters.exec;

import dev.h2beam.adapters.files.Trees;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;

/**
 * What a program h2beam starts may not see of the file system, made so by the kernel rather than asked of the
 * program: the program runs in mount and process-id namespaces of its own ({@code unshare}), where each
 * {@link #hidden} folder is an empty, read-only file system and each {@link #visible} folder under one of them is put
 * back as it is on the host (writes land on the host), and {@code /proc} shows only the program's own processes
 * (not h2beam's environment). The program runs without any capability, root's included, and cannot gain one
 * ({@code setpriv}), so it cannot take a cover off. Nothing changes outside those namespaces; when the program's
 * first process ends, the kernel ends everything else it started there.
 *
 * <p>A rollout is given its run folder and nothing else of the runs root or the benchmark folder, so it cannot read
 * the tasks' {@code grading/} folders, another rollout's files or a namespace's {@code judged.json} (dogAD F1); the
 * rest of the machine ({@code /usr}, the agent CLIs, the user's home) stays as it is, and so does the network.
 *
 * <p>Needs {@code unshare}, {@code mount}, {@code umount} and {@code setpriv} (util-linux) and either root or
 * unprivileged user namespaces (then the program runs as root <em>inside</em> its namespace, which is the calling user
 * outside it: what it writes on the host belongs to that user). {@link #unavailable} says whether this machine can,
 * trying it.
 *
 * @param hidden folders the program sees empty (absolute, normalised; one inside another is covered with it)
 * @param visible folders inside a hidden one the program sees as they are (absolute, normalised; created when
 *     missing, since the program expects them)
 */
public record Isolation(List<Path> hidden, List<Path> visible) {

  /** The flag value that asks for it ({@code --isolation}). */
  public static final String NAMESPACES = "namespaces";
  /** The flag value of a run without it, the default. */
  public static final String NONE = "none";
  /** Where config.json records it, when it is not {@link #NONE}. */
  public static final String CONFIG_KEY = "isolation";

  private static final String UNSHARE = firstOf("/usr/bin/unshare", "/bin/unshare");
  private static final String MOUNT = firstOf("/usr/bin/mount", "/bin/mount");
  private static final String UMOUNT = firstOf("/usr/bin/umount", "/bin/umount");
  private static final String MKDIR = firstOf("/usr/bin/mkdir", "/bin/mkdir");
  private static final String SETPRIV = firstOf("/usr/bin/setpriv", "/bin/setpriv");

  /** The probe's verdict, once per JVM: null until tried, "" when it works, else why not. */
  private static volatile String verdict;
  /** Whether the namespaces are made inside a user namespace of their own (not root, or root without the right). */
  private static volatile boolean userNamespace;

  public Isolation {
    hidden = normalised(hidden, "hidden");
    visible = normalised(visible, "visible");
  }

  /** The same isolation with {@code more} folders visible too (a run's own folders, known per run). */
  public Isolation showing(Path... more) {
    List<Path> all = new ArrayList<>(visible);
    for (Path p : more) all.add(p);
    return new Isolation(hidden, all);
  }

  /**
   * Why this machine cannot isolate a program, or empty when it can: tried once per JVM with a real program in a
   * temporary folder (a hidden file must be gone, a visible one there, and {@code /proc} must not show this JVM).
   */
  public static Optional<String> unavailable() {
    String v = verdict;
    if (v == null) {
      synchronized (Isolation.class) {
        v = verdict;
        if (v == null) {
          // as root, namespaces of its own first (no user namespace: the program stays the real root); a root
          // without the right to make them (a container) and any other user try a user namespace
          String asRoot = root() ? probe(false) : null;
          v = asRoot == null ? "not root" : asRoot;
          if (!v.isEmpty()) {
            String inUser = probe(true);
            if (inUser.isEmpty()) userNamespace = true;
            // both reasons when both ways were tried: a root refused its own namespaces says why as well
            v = inUser.isEmpty() ? "" : (asRoot == null ? "" : "as root, " + asRoot + "; ") + "in a user namespace, "
                + inUser;
          }
          verdict = v;
        }
      }
    }
    return v.isEmpty() ? Optional.empty() : Optional.of(v);
  }

  /** Whether an isolated program is started inside a user namespace ({@link #unavailable} first). */
  public static boolean inUserNamespace() {
    return userNamespace;
  }

  private static boolean root() {
    try {
      return Integer.valueOf(0).equals(Files.getAttribute(Path.of("/proc/self"), "unix:uid"));
    } catch (IOException | UnsupportedOperationException | IllegalArgumentException e) {
      return false;
    }
  }

  /**
   * Whether the setting's value ({@code --isolation}) asks for isolation: false for {@link #NONE} (or null), true for
   * {@link #NAMESPACES} on a machine that can.
   *
   * @throws IllegalArgumentException another value, or this machine cannot (the message says why and what to do)
   */
  public static boolean asked(String value) {
    if (value == null || value.equals(NONE)) return false;
    if (!value.equals(NAMESPACES)) {
      throw new IllegalArgumentException("--isolation=" + value + ": give " + NAMESPACES + " or " + NONE);
    }
    Optional<String> why = unavailable();
    if (why.isPresent()) {
      throw new IllegalArgumentException("--isolation=" + value + ": this machine cannot isolate a program: "
          + why.get() + "; " + remedy());
    }
    return true;
  }

  /**
   * The isolation a benchmark's rollouts run in under its setting {@code isolation} ({@code --isolation}):
   * {@code roots} (the benchmark's own folders) and the setting {@code runsRoot} hidden, each rollout then shown its
   * own folder ({@link #showing}); null when none is asked. A problem is added to {@code problems} (and null
   * returned) when the value is unknown, this machine cannot, or {@code executor} would not run its agent so.
   *
   * @param kind the executor's kind, for that problem
   */
  public static Isolation forRollouts(Map<String, String> settings, Executor executor, String kind, List<Path> roots,
      List<String> problems) {
    String asked = settings.get(CONFIG_KEY);
    try {
      if (!asked(asked)) return null;
    } catch (IllegalArgumentException e) {
      problems.add(e.getMessage());
      return null;
    }
    if (executor != null && !executor.isolates()) {
      problems.add("--isolation=" + asked + ": the " + kind + " executor does not run its agent isolated (a plug-in"
          + " written before isolation); give a built-in executor (chat, command, opencode, codex) or leave"
          + " --isolation out");
      return null;
    }
    List<Path> hidden = new ArrayList<>(roots);
    if (settings.containsKey("runsRoot")) hidden.add(Path.of(settings.get("runsRoot")));
    return new Isolation(hidden, List.of());
  }

  /** What a user does when {@link #unavailable} is not empty. */
  public static String remedy() {
    return "run h2beam as root, or allow unprivileged user namespaces (sysctl kernel.unprivileged_userns_clone=1;"
        + " on Ubuntu also kernel.apparmor_restrict_unprivileged_userns=0), or install util-linux; or run without"
        + " --isolation and read the README's \"What h2beam does not isolate\"";
  }

  /** "" when an isolated test program behaves (inside a user namespace or not), else why not. */
  static String probe(boolean inUserNamespace) {
    if (UNSHARE == null || MOUNT == null || UMOUNT == null || MKDIR == null || SETPRIV == null) {
      return "unshare, mount, umount, setpriv or mkdir is not installed (util-linux, coreutils)";
    }
    Path dir = null;
    try {
      dir = Files.createTempDirectory("h2beam-isolation-probe");
      Path secret = Files.createDirectories(dir.resolve("root")).resolve("secret.txt");
      Files.writeString(secret, "hidden\n");
      Path mine = Files.createDirectories(dir.resolve("root").resolve("mine"));
      Files.writeString(mine.resolve("seen.txt"), "seen\n");
      // the program may not take the cover off either
      String check = UMOUNT + " -l " + Shell.quote(dir.resolve("root").toString()) + " 2>/dev/null; test ! -e "
          + Shell.quote(secret.toString()) + " && test -e " + Shell.quote(mine + "/seen.txt")
          + " && test ! -e /proc/" + ProcessHandle.current().pid() + "/environ && echo ok > "
          + Shell.quote(mine + "/wrote.txt");
      ProcessResult r = ProcessRunner.run(new ProcessSpec(List.of("/bin/sh", "-c", check), dir,
          new TreeMap<>(Map.of("PATH", "/usr/bin:/bin")), ProcessSpec.Stdin.none(), dir.resolve("out.txt"),
          dir.resolve("err.txt"), 64 << 10, Duration.ofSeconds(30), ProcessSpec.NEVER, false, null,
          new Isolation(List.of(dir.resolve("root")), List.of(mine))), inUserNamespace);
      if (r.exit() != null && r.exit() == 0 && Files.isRegularFile(mine.resolve("wrote.txt"))) return "";
      String err = Files.readString(dir.resolve("err.txt")).strip();
      return "a test program in its own namespaces " + (r.exit() == null ? "did not finish" : "exited with "
          + r.exit()) + (err.isEmpty() ? " (the hidden file was still there, or /proc showed h2beam)"
              : ": " + err.lines().reduce((a, b) -> b).orElse(err));
    } catch (IOException e) {
      return "cannot try it: " + e.getMessage();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return "interrupted while trying it";
    } finally {
      if (dir != null) {
        try {
          Trees.delete(dir);
        } catch (IOException e) {
          // a temporary folder left behind; nothing depends on it
        }
      }
    }
  }

  /**
   * The command line that runs {@code argv} isolated: {@code unshare} into new namespaces, then a shell script that
   * mounts the folders (its paths quoted into it, never read from the environment), then {@code argv} as a child of
   * that shell, which stays the namespace's first process and exits with the program's status.
   *
   * @param workDir the program's working folder (absolute)
   * @param stage an empty folder outside every hidden one, where each visible folder waits (in a folder of its own,
   *     made here, named by its index) while the hidden ones are covered; emptied by {@link #unstage}
   */
  List<String> wrap(List<String> argv, Path workDir, Path stage, boolean inUserNamespace) throws IOException {
    List<Path> outer = new ArrayList<>();
    List<Path> inner = new ArrayList<>();
    for (Path h : hidden) {
      // a folder not made yet has nothing to hide; mounting over it would fail the program's start
      if (!Files.isDirectory(h)) continue;
      boolean underVisible = visible.stream().anyMatch(v -> h.startsWith(v) && !h.equals(v));
      boolean underHidden = hidden.stream().anyMatch(o -> !o.equals(h) && h.startsWith(o));
      if (underVisible) {
        inner.add(h);
      } else if (!underHidden) {
        outer.add(h);
      }
    }
    List<Path> shown = visible.stream().filter(v -> outer.stream().anyMatch(v::startsWith)).toList();
    // every program started here costs milliseconds: the script starts as few as it can (BENCHMARKS.md)
    StringBuilder s = new StringBuilder("set -e\n");
    for (int i = 0; i < shown.size(); i++) {
      Files.createDirectory(stage.resolve(String.valueOf(i)));
      s.append(MOUNT).append(" --rbind ").append(Shell.quote(shown.get(i).toString())).append(' ')
          .append(Shell.quote(stage + "/" + i)).append('\n');
    }
    for (Path h : outer) {
      s.append(MOUNT).append(" -t tmpfs -o size=64k,mode=0755 h2beam-hidden ").append(Shell.quote(h.toString()))
          .append('\n');
    }
    if (!shown.isEmpty()) {
      s.append(MKDIR).append(" -p");
      for (Path v : shown) s.append(' ').append(Shell.quote(v.toString()));
      s.append('\n');
    }
    for (int i = 0; i < shown.size(); i++) {
      s.append(MOUNT).append(" --move ").append(Shell.quote(stage + "/" + i)).append(' ')
          .append(Shell.quote(shown.get(i).toString())).append('\n');
    }
    for (Path h : outer) s.append(MOUNT).append(" -o remount,ro ").append(Shell.quote(h.toString())).append('\n');
    for (Path h : inner) {
      s.append(MOUNT).append(" -t tmpfs -o size=64k,mode=0755,ro h2beam-hidden ").append(Shell.quote(h.toString()))
          .append('\n');
    }
    // the shell started in the host's folder, below the mounts: a relative path or `..` from there would reach what
    // they hide, so the program starts from the same path looked up again
    s.append("cd ").append(Shell.quote(workDir.toString())).append('\n');
    // the program runs without any capability (root's included) and cannot gain one: it cannot take the mounts off,
    // nor make others, nor enter another namespace
    s.append("set +e\n").append(SETPRIV).append(" --no-new-privs --bounding-set=-all --inh-caps=-all")
        .append(" --ambient-caps=-all -- \"$@\"\n");
    List<String> out = new ArrayList<>(List.of(UNSHARE));
    if (inUserNamespace) out.addAll(List.of("--user", "--map-root-user"));
    out.addAll(List.of("--mount", "--propagation", "private", "--pid", "--fork", "--kill-child", "--mount-proc",
        "/bin/sh", "-c", s.toString(), "h2beam-isolated"));
    out.addAll(argv);
    return out;
  }

  /**
   * Removes the staging folder of {@link #wrap} and its empty folders, on the host (the mounts made in them lived in
   * the program's namespace only, which is gone): an empty folder is removed, anything else left as it is.
   */
  static void unstage(Path stage) throws IOException {
    try (java.util.stream.Stream<Path> waiting = Files.list(stage)) {
      for (Path p : waiting.toList()) Files.deleteIfExists(p);
    }
    Files.deleteIfExists(stage);
  }

  /**
   * Where the empty folder the visible ones pass through is made: this JVM's temporary folder, or {@code /tmp} or
   * {@code /dev/shm} when that one is hidden (it must stay in sight while they are moved).
   */
  Path stageParent() {
    for (String p : List.of(System.getProperty("java.io.tmpdir"), "/tmp", "/dev/shm")) {
      Path dir = Path.of(p).toAbsolutePath().normalize();
      if (Files.isDirectory(dir) && hidden.stream().noneMatch(dir::startsWith)) return dir;
    }
    throw new IllegalStateException("no temporary folder outside the hidden ones " + hidden + "; set "
        + "-Djava.io.tmpdir to one");
  }

  private static List<Path> normalised(List<Path> paths, String what) {
    List<Path> out = new ArrayList<>();
    for (Path p : Objects.requireNonNull(paths, what)) {
      Path n = Objects.requireNonNull(p, what).toAbsolutePath().normalize();
      if (n.getParent() == null) throw new IllegalArgumentException("cannot isolate the root folder as " + what);
      if (!out.contains(n)) out.add(n);
    }
    return List.copyOf(out);
  }

  private static String firstOf(String... paths) {
    for (String p : paths) {
      if (Files.isExecutable(Path.of(p))) return p;
    }
    return null;
  }
}
