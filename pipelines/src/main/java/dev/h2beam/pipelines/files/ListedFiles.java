package dev.h2beam.pipelines.files;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
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
 * Emits the files that exist, as Beam's match would (a folder or file that is not there matches nothing).
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
   * (a file removed since its folder was read is not there, as a match would say).
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
        for (Path child : children) addIfFile(child.resolve(name), out);
      }
    } else {
      if (pattern.contains("*")) {
        throw new IllegalArgumentException("only <folder>/*/<file> or <file> are listed, not " + pattern);
      }
      addIfFile(p, out);
    }
    return out;
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
      listed(pattern).forEach((f, a) -> out.output(MatchResult.Metadata.builder()
          .setResourceId(FileSystems.matchNewResource(f.toAbsolutePath().toString(), false))
          .setSizeBytes(a.size())
          .setIsReadSeekEfficient(true)
          .setLastModifiedMillis(a.lastModifiedTime().toMillis())
          .build()));
    }
  }
}
