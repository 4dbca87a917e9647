package dev.h2beam.adapters.files;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/** Hex digests used in file formats (SHA-1 fingerprints and ids, SHA-256 cache keys). */
public final class Hashes {
  private Hashes() {}

  public static MessageDigest digest(String algorithm) {
    try {
      return MessageDigest.getInstance(algorithm);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(algorithm + " is missing from this JVM", e);
    }
  }

  public static String hex(byte[] bytes) {
    return HexFormat.of().formatHex(bytes);
  }

  public static String sha1Hex(String text) {
    return hex(digest("SHA-1").digest(text.getBytes(StandardCharsets.UTF_8)));
  }

  public static String sha1Hex(byte[] bytes) {
    return hex(digest("SHA-1").digest(bytes));
  }
}
