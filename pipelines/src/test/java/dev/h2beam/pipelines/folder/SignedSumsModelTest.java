package dev.h2beam.pipelines.folder;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The scripted model of the worked example, as the server's threads share it. */
class SignedSumsModelTest {
  /**
   * The model server answers requests on many threads at once with one model: it keeps no state of its own. A map it
   * counted calls in (a LinkedHashMap) threw ConcurrentModificationException when two first calls of a kind met, the
   * request went unanswered, and a sweep recorded a retried call whose cost and tokens are not known.
   */
  @Test
  void theModelKeepsNoStateTheServersThreadsWouldShare() {
    assertEquals(List.of(), Arrays.stream(SignedSumsModel.class.getDeclaredFields())
        .filter(f -> !Modifier.isStatic(f.getModifiers())).map(Field::getName).toList());
  }
}
