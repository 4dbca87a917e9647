package dev.h2beam.transforms.beam;

import dev.h2beam.adapters.files.Json;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import org.apache.beam.sdk.coders.CoderException;
import org.apache.beam.sdk.coders.CustomCoder;
import org.apache.beam.sdk.coders.ByteArrayCoder;

/**
 * The one deterministic coder for h2beam's element records: canonical JSON (sorted keys) through Jackson, never Java
 * serialisation, so equal values encode to equal bytes on every runner.
 */
public final class JsonCoder<T> extends CustomCoder<T> {
  private static final long serialVersionUID = 1L;
  private final Class<T> type;

  private JsonCoder(Class<T> type) {
    this.type = type;
  }

  public static <T> JsonCoder<T> of(Class<T> type) {
    return new JsonCoder<>(type);
  }

  @Override public void encode(T value, OutputStream out) throws IOException {
    if (value == null) throw new CoderException("cannot encode a null " + type.getSimpleName());
    ByteArrayCoder.of().encode(Json.CODER.writeValueAsBytes(value), out);
  }

  @Override public T decode(InputStream in) throws IOException {
    return Json.CODER.readValue(ByteArrayCoder.of().decode(in), type);
  }

  @Override public void verifyDeterministic() {
    // canonical JSON with sorted keys: equal values give equal bytes
  }

  @Override public boolean equals(Object o) {
    return o instanceof JsonCoder<?> c && c.type.equals(type);
  }

  @Override public int hashCode() {
    return type.hashCode();
  }
}
