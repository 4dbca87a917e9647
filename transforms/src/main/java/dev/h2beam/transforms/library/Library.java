package dev.h2beam.transforms.library;

import dev.h2beam.adapters.files.AtomicFiles;
import dev.h2beam.adapters.files.TextFiles;
import dev.h2beam.adapters.model.HarnessRejected;
import dev.h2beam.adapters.model.Namespace;
import dev.h2beam.adapters.model.SurfaceSpec;
import dev.h2beam.transforms.evidence.FileTrees;
import dev.h2beam.transforms.evidence.ShownLibrary;
import dev.h2beam.transforms.evidence.VerdictTripwire;
import dev.h2beam.transforms.safety.CredentialScreen;
import dev.h2beam.transforms.tree.Inventory;
import dev.h2beam.transforms.tree.TreeIO;
import dev.h2beam.transforms.tree.TreePaths;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;

/**
 * One mode's experience library for one domain (spec §3.5, §7.5). Before each task the library is cut back to exactly
 * the entries of the tasks that precede it in the stream, so a task never sees its own or a later task's lesson.
 */
public final class Library {
  private final Path dir;
  private final String domain;
  private final SurfaceSpec surface;
  /**
   * Each entry's part of INDEX.md as this library last made it, with the stamps of what it was made from: adding a
   * domain's n-th entry reads that entry, not all n (a chain of 50 tasks read 1,275 entries' harnesses for its index,
   * which was most of a 2,000-task sweep's resume; BENCHMARKS.md). A part is made anew after this library writes or
   * removes its entry, and whenever the entry's harness folder or EXPERIENCE.md is no longer the one it was made from.
   */
  private final Map<String, IndexPart> indexParts = new ConcurrentHashMap<>();

  /** An entry's lines in INDEX.md, and the {@link #stamp} of the entry they were made from. */
  private record IndexPart(List<Object> stamp, List<String> lines) {}

  /**
   * The library as last read and screened, and each of its files' credential findings: a file read again with the
   * bytes it had then (held by that read) has the same findings, and, for {@link #shown}, the same outcome of the scan
   * for verdicts, so a domain's n-th task screens its new entry, not all n (a fifth of a 200-task domain's sweep;
   * BENCHMARKS.md). Only exact bytes are trusted, never a file's time or size.
   */
  private ShownLibrary screened;
  private Map<String, List<String>> findings = Map.of();

  /**
   * @param modeRoot {@code <library root>/<mode>}
   */
  public Library(Path modeRoot, String domain, SurfaceSpec surface) {
    this.dir = modeRoot.resolve(domainDir(domain));
    this.domain = domain;
    this.surface = surface;
  }

  /** The folder name of a domain: every {@code /} or {@code \} with surrounding spaces becomes {@code __}. */
  public static String domainDir(String domain) {
    String d = domain.replaceAll("\\s*[/\\\\]\\s*", "__").strip();
    return d.isEmpty() ? "unknown" : d;
  }

  /** A record has experience iff cue, lesson and evidence are all non-blank. */
  public static boolean hasExperience(Map<String, ?> experience) {
    for (String key : List.of("cue", "lesson", "evidence")) {
      Object v = experience.get(key);
      if (!(v instanceof String s) || s.isBlank()) return false;
    }
    return true;
  }

  public Path dir() {
    return dir;
  }

  public Path index() {
    return dir.resolve("INDEX.md");
  }

  public Path entryDir(String task) {
    return dir.resolve("harnesses").resolve(Namespace.slug(task));
  }

  public boolean exists() {
    return Files.isRegularFile(index());
  }

  /**
   * The library as one task's improvers are shown it, read once for all its stages ({@link ShownLibrary}), or null
   * while no entry holds an EXPERIENCE.md. Every entry is screened for credentials first, in the bytes the improvers
   * are then given: a library is shown to every later improver, so one key stored in it would reach them all.
   *
   * @throws HarnessRejected naming each file, line and field that holds a credential
   */
  public synchronized ShownLibrary shown() {
    if (!Files.isDirectory(dir)) return null;
    ShownLibrary lib = ShownLibrary.of(dir, screened);
    requireNoCredentials(credentials(lib));
    return lib != null && lib.hasLesson() ? lib : null;
  }

  /**
   * One problem per credential held in this library's files (each entry's harness files and EXPERIENCE.md, and any
   * other file it shows improvers), each naming the file, the line and the field, never the value.
   */
  public synchronized List<String> credentials() {
    return credentials(ShownLibrary.of(dir));
  }

  /**
   * The same over the library as read for showing, in the bytes shown: an entry's harness files as {@link TreeIO#read}
   * reads them (UTF-8, at most 1 MiB: a file that is not is refused, named), its EXPERIENCE.md as UTF-8, and every
   * other file (INDEX.md, or a file put in by hand, which improvers are shown as well) as text, whatever its bytes.
   * Entries come in name order, after the files outside them.
   */
  private List<String> credentials(ShownLibrary lib) {
    if (lib == null) return List.of();
    String entries = "harnesses/";
    Map<String, Map<String, List<String>>> byFolder = new TreeMap<>();
    Map<String, List<String>> now = new HashMap<>();
    for (String rel : lib.files()) {
      int slash = rel.startsWith(entries) ? rel.indexOf('/', entries.length()) : -1;
      String folder = slash < 0 ? "" : rel.substring(0, slash);
      String inFolder = rel.substring(slash + 1);
      Path file = lib.dir().resolve(rel);
      byte[] bytes;
      try {
        bytes = lib.bytes(rel);
      } catch (IOException x) {
        throw new UncheckedIOException("cannot read library file " + file, x);
      }
      List<String> found = unchanged(rel, bytes) ? findings.get(rel)
          : CredentialScreen.findings(Map.of(inFolder, text(slash >= 0, inFolder, file, bytes)));
      now.put(rel, found);
      byFolder.computeIfAbsent(folder, f -> new TreeMap<>()).put(inFolder, found);
    }
    screened = lib;
    findings = now;
    List<String> out = new ArrayList<>();
    for (Map.Entry<String, Map<String, List<String>>> f : byFolder.entrySet()) {
      Path folder = f.getKey().isEmpty() ? dir : dir.resolve(f.getKey());
      for (List<String> found : f.getValue().values()) for (String finding : found) out.add(folder + "/" + finding);
    }
    return out;
  }

  /** Whether the last screen read {@code rel} with these bytes and held them (a file past its budget is not held). */
  private boolean unchanged(String rel, byte[] bytes) {
    return screened != null && findings.containsKey(rel) && screened.holdsSame(rel, bytes);
  }

  /** A shown file's text as screened: see {@link #credentials(ShownLibrary)}. */
  private String text(boolean inEntry, String inFolder, Path file, byte[] bytes) {
    if (inEntry && inFolder.equals("EXPERIENCE.md")) {
      try {
        return TextFiles.utf8(bytes, "library lesson " + file);
      } catch (IOException x) {
        throw new UncheckedIOException("cannot read library file " + file, x);
      }
    }
    if (inEntry && inFolder.startsWith("harness/") && TreeIO.isRead(surface, inFolder.substring("harness/".length()))) {
      return TreeIO.text(file, bytes);
    }
    return new String(bytes, StandardCharsets.UTF_8);
  }

  private void requireNoCredentials(List<String> found) {
    if (!found.isEmpty()) {
      throw new HarnessRejected("the library " + dir + " holds credentials, so it is shown to no improver: "
          + String.join(" | ", found));
    }
  }

  /**
   * The run an entry of this library names as adopted ({@code run `<namespace>/<task>/<label>`} in its
   * EXPERIENCE.md), or "" when it names none or cannot be read.
   */
  public String runOf(String entry) {
    Path exp = dir.resolve("harnesses").resolve(entry).resolve("EXPERIENCE.md");
    // loops, not streams: this is on a resume's path, where each first use of a lambda cost a millisecond
    try (java.io.BufferedReader in = Files.newBufferedReader(exp, StandardCharsets.UTF_8)) {
      String l;
      for (int i = 0; i < 8 && (l = in.readLine()) != null; i++) {
        if (!l.startsWith("- adopted: ")) continue;
        int at = l.indexOf("(run `");
        int end = at < 0 ? -1 : l.indexOf('`', at + 6);
        return end < 0 ? "" : l.substring(at + 6, end);
      }
    } catch (IOException | UncheckedIOException e) {
      return "";
    }
    return "";
  }

  /**
   * The EXPERIENCE.md of a library under {@code modeRoot} ({@code <library root>/<mode>}) that names a run of none of
   * {@code namespaces} (the mode's own, and the one that holds the task's shared base rollouts, which a gated mode may
   * deliver), the first entry of each domain looked at; empty when there is none. A library belongs to the run that
   * wrote it: another run's sweep would cut and replace its entries, and its tasks would start from lessons its own
   * run never learned.
   */
  public static List<String> othersEntries(Path modeRoot, java.util.Set<String> namespaces, SurfaceSpec surface) {
    List<String> out = new ArrayList<>();
    firstRuns(modeRoot, surface).forEach((experience, run) -> {
      int slash = run.indexOf('/');
      if (slash > 0 && !namespaces.contains(run.substring(0, slash))) out.add(experience + " (run `" + run + "`)");
    });
    return out;
  }

  /**
   * The EXPERIENCE.md of each domain's first entry in the library under {@code modeRoot}, in domain order, with the
   * run it names ("" when it names none); none when there is no such library.
   */
  public static Map<Path, String> firstRuns(Path modeRoot, SurfaceSpec surface) {
    Map<Path, String> out = new LinkedHashMap<>();
    if (!Files.isDirectory(modeRoot)) return out;
    List<Path> domains = new ArrayList<>();
    try (java.nio.file.DirectoryStream<Path> in = Files.newDirectoryStream(modeRoot)) {
      for (Path d : in) if (Files.isDirectory(d)) domains.add(d);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot list the library " + modeRoot, e);
    }
    java.util.Collections.sort(domains);
    for (Path d : domains) {
      Library lib = new Library(modeRoot, d.getFileName().toString(), surface);
      List<String> entries = lib.entries();
      if (entries.isEmpty()) continue;
      Path experience = lib.dir.resolve("harnesses").resolve(entries.get(0)).resolve("EXPERIENCE.md");
      out.put(experience, lib.runOf(entries.get(0)));
    }
    return out;
  }

  /** Entry folder names, sorted. */
  public List<String> entries() {
    Path h = dir.resolve("harnesses");
    if (!Files.isDirectory(h)) return List.of();
    try (Stream<Path> s = Files.list(h)) {
      return s.filter(Files::isDirectory).map(p -> p.getFileName().toString()).sorted().toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The stored harness of {@code task}'s entry; refused when it holds a credential. */
  public LinkedHashMap<String, String> treeOf(String task) {
    LinkedHashMap<String, String> tree = TreeIO.read(surface, entryDir(task).resolve("harness"), null);
    List<String> found = CredentialScreen.findings(tree);
    if (!found.isEmpty()) {
      throw new HarnessRejected("library entry " + entryDir(task) + " holds credentials: " + String.join(" | ", found));
    }
    return tree;
  }

  /** How many of {@code tasks} have an entry here. */
  public int entriesOf(Collection<String> tasks) {
    Set<String> slugs = new HashSet<>();
    for (String t : tasks) slugs.add(Namespace.slug(t));
    slugs.retainAll(new HashSet<>(entries()));
    return slugs.size();
  }

  public void forget(Collection<String> tasks) throws IOException {
    boolean removed = false;
    for (String t : tasks) {
      Path e = entryDir(t);
      indexParts.remove(e.getFileName().toString());
      if (Files.exists(e)) {
        FileTrees.delete(e);
        removed = true;
      }
    }
    if (removed || !exists()) writeIndex();
  }

  /** Forgets every entry that is not one of {@code prefixTasks}; creates the index when missing. */
  public void retain(List<String> prefixTasks) throws IOException {
    Set<String> keep = new HashSet<>();
    for (String t : prefixTasks) keep.add(Namespace.slug(t));
    List<String> drop = new ArrayList<>();
    for (String e : entries()) if (!keep.contains(e)) drop.add(e);
    boolean removed = false;
    for (String e : drop) {
      indexParts.remove(e);
      FileTrees.delete(dir.resolve("harnesses").resolve(e));
      removed = true;
    }
    if (removed || !exists()) writeIndex();
  }

  /**
   * The library as a chain leaves it: exactly the entries of {@code tasks}, and an index that lists them (written
   * only when it differs).
   */
  public void settle(List<String> tasks) throws IOException {
    retain(tasks);
    writeIndex();
  }

  /**
   * Stores an adopted harness and its lesson; does nothing (false) unless the experience is complete. The tree and
   * the lesson are checked for grader verdicts first.
   */
  public boolean add(String task, Map<String, String> tree, String why, String label, String runId,
      Map<String, String> experience) throws IOException {
    if (!hasExperience(experience)) return false;
    VerdictTripwire.assertNone(tree);
    VerdictTripwire.assertNone(Map.of("EXPERIENCE.md", experience + why));
    String text = experienceText(task, tree, why, label, runId, experience);
    Map<String, String> files = new LinkedHashMap<>();
    tree.forEach((rel, t) -> files.put("harness/" + rel, t));
    files.put("EXPERIENCE.md", text);
    List<String> found = CredentialScreen.findings(files);
    if (!found.isEmpty()) {
      // refused before anything is written: a key must never be stored where every later improver reads it
      throw new HarnessRejected("library entry for " + task + " not stored: " + String.join(" | ", found));
    }
    Path entry = entryDir(task);
    if (holds(entry, tree, text)) {
      // a resume replays every finished task's entry: one stored already, byte for byte, is not written again
      writeIndex();
      return true;
    }
    if (Files.exists(entry.resolve("EXPERIENCE.md"), LinkOption.NOFOLLOW_LINKS)) {
      // the task's summary is what the entry must hold; rewritten in silence, an edit by hand was lost without a
      // word (dogAG A4)
      System.err.println("  [" + task + "] library entry " + entry + " written again from the task's result: it held"
          + " other bytes (an earlier result's, or an edit by hand)");
    }
    indexParts.remove(entry.getFileName().toString());
    FileTrees.delete(entry.resolve("harness"));
    TreeIO.write(surface, tree, entry.resolve("harness"), false);
    // atomic writes (a new file each time): evidence folders hard-link library files, and must never see them change
    AtomicFiles.writeString(entry.resolve("EXPERIENCE.md"), text);
    writeIndex();
    return true;
  }

  /**
   * Whether {@code entry} holds exactly what {@link #add} would leave there: this EXPERIENCE.md, and a harness folder
   * of these files alone (the tree's, and each always-on file the tree lacks as an empty one), with these bytes, no
   * other file, folder or link. Anything else, or a file that cannot be read, is written again.
   */
  private boolean holds(Path entry, Map<String, String> tree, String experience) {
    Path harness = entry.resolve("harness");
    try {
      Path exp = entry.resolve("EXPERIENCE.md");
      if (!Files.isRegularFile(exp, LinkOption.NOFOLLOW_LINKS) || !Files.readString(exp).equals(experience)
          || !Files.isDirectory(harness, LinkOption.NOFOLLOW_LINKS)) {
        return false;
      }
      Map<String, String> want = new HashMap<>();
      tree.forEach((rel, t) -> want.put(TreePaths.normalize(rel), t));
      for (String a : surface.alwaysOn()) want.putIfAbsent(a, "");
      Set<String> folders = new HashSet<>();
      for (String rel : want.keySet()) {
        for (int i = rel.indexOf('/'); i > 0; i = rel.indexOf('/', i + 1)) folders.add(rel.substring(0, i));
      }
      Set<String> files = new HashSet<>();
      Set<String> found = new HashSet<>();
      try (Stream<Path> all = Files.walk(harness)) {
        for (Path p : (Iterable<Path>) all::iterator) {
          if (p.equals(harness)) continue;
          String rel = harness.relativize(p).toString().replace(java.io.File.separatorChar, '/');
          BasicFileAttributes a = Files.readAttributes(p, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
          if (a.isDirectory()) found.add(rel);
          else if (a.isRegularFile()) files.add(rel);
          else return false;
        }
      }
      if (!files.equals(want.keySet()) || !found.equals(folders)) return false;
      for (Map.Entry<String, String> e : want.entrySet()) {
        if (!Files.readString(harness.resolve(e.getKey())).equals(e.getValue())) return false;
      }
      return true;
    } catch (IOException | UncheckedIOException | java.nio.file.InvalidPathException e) {
      return false;
    }
  }

  String experienceText(String task, Map<String, String> tree, String why, String label, String runId,
      Map<String, String> exp) {
    List<String> lines = new ArrayList<>();
    lines.add("# " + task);
    lines.add("");
    lines.add("- adopted: `" + label + "`" + (runId.isEmpty() ? "" : "  (run `" + runId + "`)"));
    lines.add("- components: " + Inventory.line(surface, tree));
    lines.add("");
    if (!why.isBlank()) {
      lines.add("## Why this was chosen");
      lines.add(why);
      lines.add("");
    }
    String edits = exp.getOrDefault("edits", "");
    if (!edits.isEmpty()) {
      lines.add("## What each edit did");
      lines.add(edits);
      lines.add("");
    }
    if (!exp.getOrDefault("lesson", "").isEmpty()) {
      lines.add("## Transferable lesson");
      for (String key : List.of("cue", "lesson", "evidence", "confidence")) {
        String v = exp.getOrDefault(key, "");
        if (!v.isEmpty()) lines.add("- **" + key + "**: " + v);
      }
      lines.add("");
    }
    return String.join("\n", lines);
  }

  /** Regenerates INDEX.md from what is on disk. */
  void writeIndex() throws IOException {
    Files.createDirectories(dir);
    List<String> lines = new ArrayList<>();
    lines.add("# Library — " + domain);
    lines.add("");
    lines.add("Each entry is an earlier task of this domain whose chosen harness is stored in full, with the reason"
        + " it was picked; browse this index, then open the entries that look relevant.");
    lines.add("");
    List<String> names = entries();
    if (names.isEmpty()) {
      lines.add("_(empty — this is the first task in this domain)_");
    }
    for (String name : names) lines.addAll(indexPart(name));
    indexParts.keySet().retainAll(new HashSet<>(names));
    String text = String.join("\n", lines) + "\n";
    Path index = index();
    try {
      // the same index is not written again (a resume's replay writes each entry's index anew)
      if (Files.isRegularFile(index, LinkOption.NOFOLLOW_LINKS) && Files.readString(index).equals(text)) return;
    } catch (IOException e) {
      // unreadable or not UTF-8: written below
    }
    AtomicFiles.writeString(index, text);
  }

  /** Entry {@code name}'s lines in INDEX.md: kept from the last index while its entry is unchanged, else read. */
  private List<String> indexPart(String name) throws IOException {
    Path e = dir.resolve("harnesses").resolve(name);
    List<Object> stamp = stamp(e);
    IndexPart kept = indexParts.get(name);
    if (kept != null && stamp != null && kept.stamp().equals(stamp)) return kept.lines();
    Map<String, String> tree = TreeIO.read(surface, e.resolve("harness"), null);
    List<String> lines = new ArrayList<>();
    lines.add("## `harnesses/" + name + "/`");
    lines.add("- harness: `harnesses/" + name + "/harness/` — " + Inventory.line(surface, tree));
    lines.add("- why:     `harnesses/" + name + "/EXPERIENCE.md`");
    String cue = cueOf(e.resolve("EXPERIENCE.md"));
    if (cue != null) lines.add("- cue:     " + cue);
    lines.add("");
    if (stamp != null) indexParts.put(name, new IndexPart(stamp, List.copyOf(lines)));
    return lines;
  }

  /**
   * What an index part is made from, as the file system tells it without reading: the identity (device and inode),
   * time and size of the entry's harness folder and of its EXPERIENCE.md (both are made anew, never changed in place,
   * when an entry is stored); null where the file system gives no identity, so nothing is kept.
   */
  private static List<Object> stamp(Path entry) {
    List<Object> out = new ArrayList<>(6);
    for (Path p : new Path[] {entry.resolve("harness"), entry.resolve("EXPERIENCE.md")}) {
      try {
        BasicFileAttributes a = Files.readAttributes(p, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
        if (a.fileKey() == null) return null;
        out.add(a.fileKey());
        out.add(a.lastModifiedTime());
        out.add(a.size());
      } catch (IOException e) {
        out.add("missing");
      }
    }
    return out;
  }

  private static String cueOf(Path experience) throws IOException {
    if (!Files.isRegularFile(experience)) return null;
    for (String line : Files.readAllLines(experience, StandardCharsets.UTF_8)) {
      if (line.startsWith("- **cue**:")) return line.substring(line.indexOf(':') + 1).strip();
    }
    return null;
  }
}
