package dev.h2beam.adapters.files;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * For tests that look for a key value in everything a run left: the regular files below a folder (links not followed)
 * whose bytes hold a text. Shared with other modules' tests through the adapters test-jar.
 */
public final class FilesHolding {
  private FilesHolding() {}

  /** The regular files below {@code root} whose bytes contain {@code text} (UTF-8), in walk order. */
  public static List<Path> containing(Path root, String text) throws IOException {
    byte[] needle = text.getBytes(StandardCharsets.UTF_8);
    List<Path> out = new ArrayList<>();
    try (Stream<Path> all = Files.walk(root)) {
      for (Path f : all.filter(p -> Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS)).toList()) {
        if (indexOf(Files.readAllBytes(f), needle) >= 0) out.add(f);
      }
    }
    return out;
  }

  private static int indexOf(byte[] hay, byte[] needle) {
    outer:
    for (int i = 0; i + needle.length <= hay.length; i++) {
      for (int j = 0; j < needle.length; j++) if (hay[i + j] != needle[j]) continue outer;
      return i;
    }
    return -1;
  }
}
