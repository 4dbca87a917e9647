package dev.h2beam.pipelines.report;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Arrays;

/**
 * One namespace's facts as the bytes {@link FactsCodec} writes, the form in which the report's side input gathers
 * them. The runner copies a side input's grouped values each time a bundle adds to them (the DirectRunner clones
 * every element through its coder); a copy of bytes is a memory copy, where a copy of the facts themselves decoded
 * hundreds of thousands of objects and kept the collector busy. The report unpacks each namespace once. (Its Beam
 * coder is in {@link ReportPipeline}.)
 */
record PackedFacts(byte[] bytes) {
  static PackedFacts pack(NamespaceFacts facts) {
    try {
      return new PackedFacts(FactsCodec.toBytes(facts));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot pack the facts of " + facts.dir(), e);
    }
  }

  /** Equal when the bytes are (a record compares arrays by identity). */
  @Override public boolean equals(Object o) {
    return o instanceof PackedFacts p && Arrays.equals(bytes, p.bytes);
  }

  @Override public int hashCode() {
    return Arrays.hashCode(bytes);
  }

  @Override public String toString() {
    return "PackedFacts[" + bytes.length + " bytes]";
  }

  NamespaceFacts unpack() {
    try {
      return FactsCodec.fromBytes(bytes);
    } catch (IOException e) {
      throw new UncheckedIOException("corrupt packed namespace facts", e);
    }
  }
}
