package dev.h2beam.pipelines.sweep;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.h2beam.adapters.config.EnvKeys;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * The task-inputs screen refuses live keys (a held key's value, a provider-shaped key) and passes what real task data
 * is full of (dogAM F1): tokenised text, a JWT of an auth task, a documented example key, hashes and ids.
 */
class TaskInputsTest {
  static List<String> findings(String text) {
    return TaskInputs.findings("source/data.txt", text, new TreeSet<>());
  }

  @Test
  void dataThatOnlyLooksLikeACredentialPasses() {
    assertEquals(List.of(), findings("{\"tokens\": [\"EU\", \"rejects\", \"German\", \"call\", \"to\", \"boycott\","
        + " \"British\", \"lamb\", \"government\"]}\n"));
    assertEquals(List.of(), findings("token = eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6"
        + "IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyfQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c\n"));
    assertEquals(List.of(), findings("aws_access_key_id = AKIAIOSFODNN7EXAMPLE\n"));
    assertEquals(List.of(), findings("id,sha256,uuid\n1,"
        + "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08,123e4567-e89b-12d3-a456-426614174000\n"));
    assertEquals(List.of(), findings("Authorization: Bearer abcdef0123456789abcdef0123\n"));
  }

  @Test
  void aLiveKeyIsFoundByLineAndNeverShown() {
    String provider = "sk-proj-" + "Ab3dEf6hIj9kLm2nOp5qRs8t";
    List<String> f = findings("a,b\nOPENAI_API_KEY=" + provider + "\n");
    assertEquals(1, f.size(), f.toString());
    assertTrue(f.get(0).startsWith("source/data.txt line 2 (sk-…) holds what looks like a literal credential"),
        f.get(0));
    assertTrue(f.stream().noneMatch(x -> x.contains(provider)));

    List<EnvKeys.Held> was = EnvKeys.use(Map.of("LOCAL_API_KEY", "tally-local-key-12345678"));
    try {
      f = findings("note: api token tally-local-key-12345678\n");
      assertEquals(List.of("source/data.txt line 1 (the value of $LOCAL_API_KEY) holds what looks like a literal"
          + " credential; " + TaskInputs.CARRIERS + " must never carry credentials: "
          + dev.h2beam.transforms.safety.CredentialScreen.WHAT_TO_DO), f);
    } finally {
      EnvKeys.restore(was);
    }
  }
}
