package dev.h2beam.pipelines.files;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import org.apache.beam.sdk.io.FileSystems;
import org.apache.beam.sdk.io.fs.MatchResult;
import org.apache.beam.sdk.io.fs.MetadataCoder;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.PTransform;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.values.PCollection;

/**
 * Finds the files the judge and the report read, by listing only the folders their patterns name: a pattern is a
 * file ({@code <ns>/judged.json}) or a file in each sub-folder ({@code <ns>/*}{@code /summary.json}). Beam's
 * {@code FileIO.matchAll} on the local file system walks the whole tree below the pattern's fixed prefix and then
 * filters it: below a namespace of a 2,000-task sweep that is millions of evidence files, and matching took longer
 * than the sweep's judging. Listing one level costs one directory read per namespace and one look per task.
 * Emits the files that exist, as Beam's match would (a folder or file that is not there matches nothing), and the
 * files whose existence this user cannot tell (a task folder it may not look into, a link that loops): those are
 * emitted too, so that their reader names why they cannot be read, rather than the judge silently counting fewer.
 */
public final class ListedFiles extends PTransform<PCollection<String>, PCollection<MatchResult.Metadata>> {
  private static final long serialVersionUID = 1L;

  public static ListedFiles of() {
    return new ListedFiles();
  }

  @Override public PCollection<MatchResult.Metadata> expand(PCollection<String> patterns) {
    return patterns.apply("ListFolders", ParDo.of(new ListFn())).setCoder(MetadataCoder.of());
  }

  /** The files {@code pattern} names that exist now, in name order. */
  public static List<Path> list(String pattern) throws IOException {
    return new ArrayList<>(listed(pattern).keySet());
  }

  /**
   * The regular files {@code pattern} names that exist now, in name order, with their attributes: one look at each
   * (a file removed since its folder was read is not there, as a match would say). A file whose existence cannot be
   * told is listed with no attributes (null).
   */
  static SortedMap<Path, BasicFileAttributes> listed(String pattern) throws IOException {
    Path p = Paths.get(pattern);
    Path parent = p.getParent();
    String name = p.getFileName().toString();
    if (name.contains("*")) throw new IllegalArgumentException("no wildcard allowed in a file name: " + pattern);
    SortedMap<Path, BasicFileAttributes> out = new TreeMap<>();
    if (parent != null && parent.getFileName() != null && parent.getFileName().toString().equals("*")) {
      Path dir = parent.getParent();
      if (dir == null || dir.toString().contains("*")) {
        throw new IllegalArgumentException("only <folder>/*/<file> or <file> are listed, not " + pattern);
      }
      if (!Files.isDirectory(dir)) return out;
      try (DirectoryStream<Path> children = Files.newDirectoryStream(dir)) {
        for (Path child : children) addIfInFolder(child, name, out);
      }
    } else {
      if (pattern.contains("*")) {
        throw new IllegalArgumentException("only <folder>/*/<file> or <file> are listed, not " + pattern);
      }
      addIfFile(p, out);
    }
    return out;
  }

  /**
   * Adds {@code child/name} when {@code child} is a folder that holds it, or when that cannot be told: a child that
   * is a file (config.json beside the task folders) or that is gone holds nothing, but one this user may not look
   * into (AccessDeniedException) or that cannot be resolved may hold a summary, and skipping it would drop a task
   * without a word.
   */
  private static void addIfInFolder(Path child, String name, Map<Path, BasicFileAttributes> out) {
    Path f = child.resolve(name);
    try {
      if (!Files.readAttributes(child, BasicFileAttributes.class).isDirectory()) return;
      BasicFileAttributes a = Files.readAttributes(f, BasicFileAttributes.class);
      if (a.isRegularFile()) out.put(f, a);
    } catch (NoSuchFileException e) {
      // not there: nothing to match
    } catch (IOException e) {
      out.put(f, null);
    }
  }

  private static void addIfFile(Path f, Map<Path, BasicFileAttributes> out) {
    try {
      BasicFileAttributes a = Files.readAttributes(f, BasicFileAttributes.class);
      if (a.isRegularFile()) out.put(f, a);
    } catch (IOException e) {
      // not there (or not readable as a file): nothing to match, as Files.isRegularFile answers
    }
  }

  static final class ListFn extends DoFn<String, MatchResult.Metadata> {
    private static final long serialVersionUID = 1L;

    @ProcessElement public void process(@Element String pattern, OutputReceiver<MatchResult.Metadata> out)
        throws IOException {
      // a file whose existence cannot be told goes on with no size, for its reader to fail on and name
      listed(pattern).forEach((f, a) -> out.output(MatchResult.Metadata.builder()
          .setResourceId(FileSystems.matchNewResource(f.toAbsolutePath().toString(), false))
          .setSizeBytes(a == null ? 0 : a.size())
          .setIsReadSeekEfficient(true)
          .setLastModifiedMillis(a == null ? 0 : a.lastModifiedTime().toMillis())
          .build()));
    }
  }
}
