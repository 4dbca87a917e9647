package dev.h2beam.pipelines;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.InputStream;
import java.io.OutputStream;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A jar staged for a remote Flink cluster must hold the h2beam the client runs: one built from other sources is
 * refused before anything is submitted, naming the flag, the jar, the classes that differ and what to do.
 */
class StagedJarsTest {
  private static final ClassLoader CLIENT = StagedJarsTest.class.getClassLoader();
  private static final String A = "dev/h2beam/pipelines/UsageError.class";
  private static final String B = "dev/h2beam/pipelines/FlinkMaster.class";

  private static byte[] own(String resource) throws Exception {
    try (InputStream in = CLIENT.getResourceAsStream(resource)) {
      return in.readAllBytes();
    }
  }

  private static Path jar(Path dir, String name, Map<String, byte[]> entries) throws Exception {
    Path jar = dir.resolve(name);
    try (OutputStream out = Files.newOutputStream(jar); ZipOutputStream zip = new ZipOutputStream(out)) {
      for (Map.Entry<String, byte[]> e : entries.entrySet()) {
        zip.putNextEntry(new ZipEntry(e.getKey()));
        zip.write(e.getValue());
        zip.closeEntry();
      }
    }
    return jar;
  }

  @Test
  void aJarWithTheClientsOwnClassesPasses(@TempDir Path dir) throws Exception {
    Map<String, byte[]> entries = new LinkedHashMap<>();
    entries.put("dev/h2beam/pipelines/", new byte[0]);
    entries.put(A, own(A));
    entries.put(B, own(B));
    entries.put("org/example/Other.class", new byte[] {1, 2, 3}); // not h2beam's: not compared
    entries.put("dev/h2beam/plugin/OnlyOnTheWorkers.class", new byte[] {4}); // the client lacks it: not compared
    entries.put("META-INF/MANIFEST.MF", "Manifest-Version: 1.0\n".getBytes());
    for (String core : StagedJars.CORE) entries.put(core, own(core));
    StagedJars.requireCurrent(List.of(jar(dir, "current.jar", entries).toString(), dir.toString()), CLIENT);
  }

  @Test
  void stagedFilesWithoutTheClassesEveryWorkerRunsAreRefused(@TempDir Path dir) throws Exception {
    // the thin demo jar beside the cluster jar: current, but without the modules the workers run
    Path thin = jar(dir, "thin.jar", Map.of(A, own(A)));
    UsageError e = assertThrows(UsageError.class, () -> StagedJars.requireCurrent(List.of(thin.toString()), CLIENT));
    String m = e.getMessage();
    assertTrue(m.startsWith("--filesToStage=" + thin + ": the staged files lack h2beam's"
        + " dev.h2beam.adapters.files.Json, dev.h2beam.pipelines.Main, dev.h2beam.transforms.sweep.SweepContext,"
        + " which every worker runs; stage the cluster jar"), m);
    // together, two files hold them all
    Map<String, byte[]> rest = new LinkedHashMap<>();
    for (String core : StagedJars.CORE) rest.put(core, own(core));
    StagedJars.requireCurrent(List.of(thin.toString(), jar(dir, "rest.jar", rest).toString()), CLIENT);
  }

  @Test
  void aJarBuiltFromOtherSourcesIsRefusedNamingTheJarTheClassesAndWhatToDo(@TempDir Path dir) throws Exception {
    byte[] changed = own(B).clone();
    changed[changed.length - 1] ^= 1;
    Map<String, byte[]> entries = new LinkedHashMap<>();
    entries.put(A, own(A));
    entries.put(B, changed);
    Path stale = jar(dir, "stale.jar", entries);
    UsageError e = assertThrows(UsageError.class, () -> StagedJars.requireCurrent(List.of(stale.toString()), CLIENT));
    String m = e.getMessage();
    assertTrue(m.startsWith("--filesToStage: " + stale + " holds another h2beam than this client runs: 1 of its 2"
        + " h2beam classes differ (dev.h2beam.pipelines.FlinkMaster)"), m);
    assertTrue(m.contains("mvn -B -ntp -DskipTests package") && m.contains("run the client from the jar itself"), m);
    assertEquals(1, m.lines().count());
  }

  @Test
  void aClientRunningFromAJarIsComparedByItsDirectoryAndItsOwnJarPasses(@TempDir Path dir) throws Exception {
    Map<String, byte[]> entries = new LinkedHashMap<>();
    entries.put("dev/", new byte[0]);
    entries.put("dev/h2beam/", new byte[0]);
    entries.put("dev/h2beam/pipelines/", new byte[0]);
    entries.put(A, own(A));
    entries.put(B, own(B));
    Path clientJar = jar(dir, "client.jar", entries);
    try (URLClassLoader client = new URLClassLoader(new URL[] {clientJar.toUri().toURL()}, null)) {
      StagedJars.requireCurrent(List.of(clientJar.toString()), client); // its own jar, as the README's client runs
      StagedJars.requireCurrent(List.of(jar(dir, "copy.jar", entries).toString()), client);
      byte[] changed = own(A).clone();
      changed[changed.length / 2] ^= 1;
      entries.put(A, changed);
      Path other = jar(dir, "other.jar", entries);
      UsageError e = assertThrows(UsageError.class, () -> StagedJars.requireCurrent(List.of(other.toString()),
          client));
      assertTrue(e.getMessage().contains("1 of its 2 h2beam classes differ (dev.h2beam.pipelines.UsageError)"),
          e.getMessage());
    }
  }

  @Test
  void aMissingOrUnreadableJarIsRefusedNamingIt(@TempDir Path dir) throws Exception {
    Path missing = dir.resolve("nowhere.jar");
    UsageError e = assertThrows(UsageError.class,
        () -> StagedJars.requireCurrent(List.of(missing.toString()), CLIENT));
    assertTrue(e.getMessage().startsWith("--filesToStage: " + missing + " does not exist"), e.getMessage());
    Path text = Files.writeString(dir.resolve("notes.jar"), "not a zip\n");
    e = assertThrows(UsageError.class, () -> StagedJars.requireCurrent(List.of(text.toString()), CLIENT));
    assertTrue(e.getMessage().startsWith("--filesToStage: " + text + " cannot be read as a jar"), e.getMessage());
  }

  @Test
  void onlyARemoteFlinkClusterIsChecked(@TempDir Path dir) throws Exception {
    String missing = "--filesToStage=" + dir.resolve("nowhere.jar");
    // the DirectRunner and an embedded Flink run this process's own classes
    StagedJars.requireCurrent(PipelineOptionsFactory.fromArgs(missing).create());
    StagedJars.requireCurrent(PipelineOptionsFactory.fromArgs("--runner=FlinkRunner", "--flinkMaster=[local]",
        missing).create());
    assertThrows(UsageError.class, () -> StagedJars.requireCurrent(PipelineOptionsFactory.fromArgs(
        "--runner=FlinkRunner", "--flinkMaster=127.0.0.1:8081", missing).create()));
  }
}
