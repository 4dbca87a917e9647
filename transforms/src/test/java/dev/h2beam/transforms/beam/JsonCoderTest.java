package dev.h2beam.transforms.beam;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.h2beam.adapters.model.RunView;
import dev.h2beam.transforms.sweep.TaskBases;
import dev.h2beam.transforms.sweep.TaskRef;
import dev.h2beam.transforms.sweep.TaskRow;
import java.io.ByteArrayOutputStream;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.beam.sdk.coders.CoderException;
import org.apache.beam.sdk.testing.CoderProperties;
import org.junit.jupiter.api.Test;

/** The deterministic JSON coder, checked with Beam's own {@link CoderProperties}. */
class JsonCoderTest {
  private static final JsonCoder<TaskRef> REF = JsonCoder.of(TaskRef.class);
  private static final JsonCoder<TaskBases> BASES = JsonCoder.of(TaskBases.class);
  private static final JsonCoder<TaskRow> ROW = JsonCoder.of(TaskRow.class);

  private static TaskRef ref() {
    return new TaskRef("legal / contracts", "a/1", 1, 2, 3);
  }

  private static TaskBases bases() {
    return new TaskBases(ref(), false, false, List.of(
        new RunView("base1", "demo-oc-agg2/a/1/base1", "/runs/demo-oc-agg2/a__1/base1", true, true, 0.0, 12.5, ""),
        RunView.dead("base2", "demo-oc-agg2/a/1/base2", "/runs/missing", "RuntimeError: no output \u2014 x", 0.25,
            false)));
  }

  private static TaskRow row(String first, int firstCount, String second, int secondCount) {
    Map<String, Integer> before = new LinkedHashMap<>();
    before.put(first, firstCount);
    before.put(second, secondCount);
    return new TaskRow(ref(), "partial", "seq: selection failed: \"timeout\"", before);
  }

  @Test
  void taskRefDecodesToWhatWasEncoded() throws Exception {
    CoderProperties.coderDecodeEncodeEqual(REF, ref());
  }

  @Test
  void taskRefEncodingIsDeterministic() throws Exception {
    CoderProperties.coderDeterministic(REF, ref(), new TaskRef("legal / contracts", "a/1", 1, 2, 3));
  }

  @Test
  void taskRefStructuralValueSurvivesARoundTrip() throws Exception {
    CoderProperties.structuralValueDecodeEncodeEqual(REF, ref());
  }

  @Test
  void taskBasesWithRunViewsDecodesToWhatWasEncoded() throws Exception {
    CoderProperties.coderDecodeEncodeEqual(BASES, bases());
  }

  @Test
  void taskBasesWithoutRunViewsDecodesToWhatWasEncoded() throws Exception {
    CoderProperties.coderDecodeEncodeEqual(BASES, new TaskBases(ref(), true, false, List.of()));
    CoderProperties.coderDecodeEncodeEqual(BASES, new TaskBases(ref(), false, true, List.of()));
  }

  @Test
  void taskBasesEncodingIsDeterministic() throws Exception {
    CoderProperties.coderDeterministic(BASES, bases(), bases());
  }

  @Test
  void taskBasesStructuralValueSurvivesARoundTrip() throws Exception {
    CoderProperties.structuralValueDecodeEncodeEqual(BASES, bases());
  }

  @Test
  void taskRowDecodesToWhatWasEncoded() throws Exception {
    CoderProperties.coderDecodeEncodeEqual(ROW, row("agg", 1, "seq", 0));
  }

  @Test
  void taskRowEncodingIsDeterministicWhateverTheMapOrder() throws Exception {
    CoderProperties.coderDeterministic(ROW, row("agg", 1, "seq", 0), row("seq", 0, "agg", 1));
  }

  @Test
  void taskRowStructuralValueSurvivesARoundTrip() throws Exception {
    CoderProperties.structuralValueDecodeEncodeEqual(ROW, row("seq", 0, "agg", 1));
  }

  @Test
  void coderIsSerializable() throws Exception {
    CoderProperties.coderSerializable(REF);
    CoderProperties.coderSerializable(BASES);
    CoderProperties.coderSerializable(ROW);
  }

  @Test
  void codersOfTheSameTypeAreEqual() {
    assertEquals(JsonCoder.of(TaskRef.class), REF);
    assertEquals(JsonCoder.of(TaskRef.class).hashCode(), REF.hashCode());
    assertNotEquals(REF, ROW);
  }

  @Test
  void encodingNullFails() {
    assertThrows(CoderException.class, () -> REF.encode(null, new ByteArrayOutputStream()));
  }
}
