package dev.h2beam.transforms.selection;

import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;

/**
 * A port of CPython's {@code random.Random} (MT19937, spec §19.1) that reproduces Python's draws bit for bit.
 *
 * <p>Stream order, anonymous selection ids and split files are shuffled with it, so a Java run orders tasks and
 * names candidates exactly as a Python run with the same seed. {@link java.util.Random} is a different generator
 * and must not be substituted. Instances are not thread-safe.
 */
public final class PyRandom {
  /**
   * Python's {@code sorted()} order for {@code str}: by Unicode code point. It differs from
   * {@link String#compareTo} (UTF-16 units) only for supplementary characters, but every shuffle here starts from a
   * Python-sorted list, so the start order must match exactly.
   */
  public static final Comparator<String> STRING_ORDER = dev.h2beam.adapters.files.PathOrder.STRINGS;

  private static final int N = 624;
  private static final int M = 397;
  private static final int MATRIX_A = 0x9908b0df;
  private static final int UPPER_MASK = 0x80000000;
  private static final int LOWER_MASK = 0x7fffffff;

  private final int[] mt = new int[N];
  private int index;

  /** A generator seeded like {@code random.Random(seed)} with an int seed. */
  public PyRandom(long seed) {
    this(BigInteger.valueOf(seed));
  }

  /** A generator seeded like {@code random.Random(seed)} with an arbitrarily large int seed. */
  public PyRandom(BigInteger seed) {
    initByArray(key(seed));
  }

  /**
   * A generator seeded like {@code random.Random(seed)} with a str seed (version-2 seeding): the seed becomes the
   * big-endian unsigned integer of its UTF-8 bytes followed by their SHA-512 digest.
   */
  public PyRandom(String seed) {
    this(stringSeed(seed));
  }

  /** The int that CPython's version-2 seeding derives from {@code seed}. */
  static BigInteger stringSeed(String seed) {
    byte[] utf8 = seed.getBytes(StandardCharsets.UTF_8);
    byte[] digest;
    try {
      digest = MessageDigest.getInstance("SHA-512").digest(utf8);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-512 is missing from this JVM", e);
    }
    byte[] all = Arrays.copyOf(utf8, utf8.length + digest.length);
    System.arraycopy(digest, 0, all, utf8.length, digest.length);
    return new BigInteger(1, all);
  }

  /** The 32-bit words of |n|, least significant first; zero gives {@code [0]} (CPython's {@code random_seed}). */
  static int[] key(BigInteger n) {
    BigInteger abs = n.abs();
    if (abs.signum() == 0) return new int[] {0};
    int[] key = new int[(abs.bitLength() - 1) / 32 + 1];
    for (int i = 0; i < key.length; i++) key[i] = abs.shiftRight(32 * i).intValue();
    return key;
  }

  // Java int arithmetic wraps modulo 2^32, which is exactly the uint32 arithmetic of the C reference.
  private void initGenrand(int s) {
    mt[0] = s;
    for (int i = 1; i < N; i++) mt[i] = 1812433253 * (mt[i - 1] ^ (mt[i - 1] >>> 30)) + i;
    index = N;
  }

  /** Seeds the state from a key of 32-bit words, as CPython's {@code init_by_array}. */
  void initByArray(int[] key) {
    if (key.length == 0) throw new IllegalArgumentException("init_by_array needs at least one key word; pass [0]");
    initGenrand(19650218);
    int i = 1;
    int j = 0;
    for (int k = Math.max(N, key.length); k > 0; k--) {
      mt[i] = (mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >>> 30)) * 1664525)) + key[j] + j;
      i++;
      j++;
      if (i >= N) {
        mt[0] = mt[N - 1];
        i = 1;
      }
      if (j >= key.length) j = 0;
    }
    for (int k = N - 1; k > 0; k--) {
      mt[i] = (mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >>> 30)) * 1566083941)) - i;
      i++;
      if (i >= N) {
        mt[0] = mt[N - 1];
        i = 1;
      }
    }
    mt[0] = 0x80000000; // MSB is 1, assuring a non-zero initial array
    index = N;
  }

  private void regenerate() {
    int kk = 0;
    for (; kk < N - M; kk++) mt[kk] = mt[kk + M] ^ twist(mt[kk], mt[kk + 1]);
    for (; kk < N - 1; kk++) mt[kk] = mt[kk + (M - N)] ^ twist(mt[kk], mt[kk + 1]);
    mt[N - 1] = mt[M - 1] ^ twist(mt[N - 1], mt[0]);
    index = 0;
  }

  private static int twist(int upper, int lower) {
    int y = (upper & UPPER_MASK) | (lower & LOWER_MASK);
    return (y >>> 1) ^ ((y & 1) != 0 ? MATRIX_A : 0);
  }

  /** The next tempered 32-bit output, as an unsigned value in {@code [0, 2^32)}. */
  public long genrandUint32() {
    if (index >= N) regenerate();
    int y = mt[index++];
    y ^= y >>> 11;
    y ^= (y << 7) & 0x9d2c5680;
    y ^= (y << 15) & 0xefc60000;
    y ^= y >>> 18;
    return Integer.toUnsignedLong(y);
  }

  /** {@code getrandbits(k)} for {@code 1 <= k <= 32}: the top {@code k} bits of one 32-bit output. */
  public long getrandbits(int k) {
    if (k < 1 || k > 32) {
      throw new IllegalArgumentException("getrandbits supports 1..32 bits, got " + k + "; draw several words instead");
    }
    return genrandUint32() >>> (32 - k);
  }

  /** {@code random()}: a double in {@code [0, 1)} from 53 bits of two outputs, as CPython's {@code random_random}. */
  public double random() {
    long a = genrandUint32() >>> 5;
    long b = genrandUint32() >>> 6;
    return (a * 67108864.0 + b) * (1.0 / 9007199254740992.0);
  }

  /** {@code _randbelow(n)}: a uniform int in {@code [0, n)} by rejection sampling on {@code bitLength(n)} bits. */
  public int randbelow(int n) {
    if (n < 1) throw new IllegalArgumentException("randbelow needs n >= 1, got " + n);
    int k = 32 - Integer.numberOfLeadingZeros(n);
    long r = getrandbits(k);
    while (r >= n) r = getrandbits(k);
    return (int) r;
  }

  /** Shuffles {@code list} in place exactly as CPython's {@code random.shuffle} (Fisher–Yates from the end). */
  public <T> void shuffle(List<T> list) {
    for (int i = list.size() - 1; i > 0; i--) Collections.swap(list, i, randbelow(i + 1));
  }
}
