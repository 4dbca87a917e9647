package dev.h2beam.adapters.plugin;

import dev.h2beam.adapters.files.Hashes;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.CodeSource;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.stream.Stream;

/**
 * Which code a plug-in is, for a run's identity: h2beam's own (then the build h2beam records says which), or a digest
 * of the jar or class folder it was loaded from. A resume with another jar under the same name is then told apart,
 * whatever the class path's order. The digest covers every entry's name and bytes but the jar's manifest and Maven's
 * build metadata, which hold the build's time and JDK: the same sources built again give the same digest.
 */
public final class PluginCode {
  private PluginCode() {}

  /**
   * Each plug-in jar's or folder's digest, read once per JVM: a sweep records the code as it builds its run identity,
   * two or three times, and the classes it runs were loaded once, whatever the file holds later.
   */
  private static final Map<Path, String> DIGESTS = new java.util.concurrent.ConcurrentHashMap<>();

  /** The value recorded for a plug-in shipped in h2beam itself. */
  public static final String BUILT_IN = "h2beam";

  /**
   * {@code {"class": ..., "code": "h2beam" | "sha256:<hex>", "from": <jar or folder name>}}: {@code from} only for a
   * plug-in; {@code home} is a class of h2beam's own from the same module, whose code source h2beam's own plug-ins
   * share.
   */
  public static Map<String, Object> of(Class<?> plugin, Class<?> home) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("class", plugin.getName());
    Path at = location(plugin);
    if (at == null || at.equals(location(home))) {
      m.put("code", BUILT_IN);
      return m;
    }
    try {
      String known = DIGESTS.get(at);
      if (known == null) {
        known = digest(at);
        DIGESTS.put(at, known);
      }
      m.put("code", "sha256:" + known);
    } catch (IOException e) {
      throw new UncheckedIOException(at + ": cannot read the plug-in's code to record which it is: " + e.getMessage(),
          e);
    }
    m.put("from", at.getFileName() == null ? at.toString() : at.getFileName().toString());
    return m;
  }

  /** The jar or class folder {@code c} was loaded from; null when the JVM does not say (a JDK class). */
  static Path location(Class<?> c) {
    CodeSource cs = c.getProtectionDomain() == null ? null : c.getProtectionDomain().getCodeSource();
    if (cs == null || cs.getLocation() == null || !"file".equals(cs.getLocation().getProtocol())) return null;
    try {
      return Path.of(cs.getLocation().toURI()).toAbsolutePath().normalize();
    } catch (URISyntaxException | RuntimeException e) {
      return null;
    }
  }

  /** SHA-256 over the entries' names and bytes in name order, the manifest and Maven's metadata left out. */
  static String digest(Path jarOrFolder) throws IOException {
    MessageDigest d = Hashes.digest("SHA-256");
    if (Files.isDirectory(jarOrFolder)) {
      List<Path> files;
      try (Stream<Path> s = Files.walk(jarOrFolder)) {
        files = new ArrayList<>(s.filter(Files::isRegularFile).toList());
      }
      List<String> names = new ArrayList<>();
      for (Path f : files) names.add(jarOrFolder.relativize(f).toString().replace('\\', '/'));
      Collections.sort(names);
      for (String name : names) {
        if (metadata(name)) continue;
        entry(d, name, Files.readAllBytes(jarOrFolder.resolve(name)));
      }
    } else {
      try (JarFile jar = new JarFile(jarOrFolder.toFile())) {
        List<JarEntry> entries = new ArrayList<>(Collections.list(jar.entries()));
        entries.sort((a, b) -> a.getName().compareTo(b.getName()));
        for (JarEntry e : entries) {
          if (e.isDirectory() || metadata(e.getName())) continue;
          try (InputStream in = jar.getInputStream(e)) {
            entry(d, e.getName(), in.readAllBytes());
          }
        }
      }
    }
    return Hashes.hex(d.digest());
  }

  private static boolean metadata(String name) {
    return name.equals("META-INF/MANIFEST.MF") || name.startsWith("META-INF/maven/");
  }

  private static void entry(MessageDigest d, String name, byte[] bytes) {
    d.update(name.getBytes(StandardCharsets.UTF_8));
    d.update((byte) 0);
    d.update(Long.toString(bytes.length).getBytes(StandardCharsets.US_ASCII));
    d.update((byte) 0);
    d.update(bytes);
  }
}
