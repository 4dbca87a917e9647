package dev.h2beam.adapters.files;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.util.Locale;
import org.junit.jupiter.api.Test;

class JobsOverviewTest {
  /** An answer listing {@code jobs}, each {@code jid:name:state}. */
  private static JsonNode overview(String... jobs) throws IOException {
    StringBuilder b = new StringBuilder("{\"jobs\":[");
    for (int i = 0; i < jobs.length; i++) {
      String[] f = jobs[i].split(":");
      b.append(i == 0 ? "" : ",").append(String.format(Locale.ROOT,
          "{\"jid\":\"%s\",\"name\":\"%s\",\"state\":\"%s\",\"tasks\":{\"total\":4}}", f[0], f[1], f[2]));
    }
    return Json.readTree(b.append("]}").toString());
  }

  @Test
  void onlyFinishedCancelledAndFailedAreEnded() {
    for (String s : new String[] {"FINISHED", "CANCELED", "FAILED"}) assertTrue(JobsOverview.ended(s), s);
    for (String s : new String[] {"INITIALIZING", "CREATED", "RUNNING", "RESTARTING", "FAILING", "CANCELLING",
        "SUSPENDED", "RECONCILING", ""}) {
      assertFalse(JobsOverview.ended(s), s);
    }
  }

  @Test
  void theJobOfTheNameIsItsEntryAndNoneWhenTheClusterDoesNotListIt() throws IOException {
    JsonNode o = overview("a:other:RUNNING", "b:sweep:RESTARTING");
    assertEquals("b", JobsOverview.job(o, "sweep").path("jid").asText());
    assertEquals(4, JobsOverview.job(o, "sweep").path("tasks").path("total").asInt());
    assertNull(JobsOverview.job(o, "judge"));
    assertNull(JobsOverview.job(overview(), "sweep"));
    assertTrue(JobsOverview.listsJobs(overview()));
  }

  @Test
  void aNameGivenTwiceIsTakenForTheJobThatMayStillWrite() throws IOException {
    assertEquals("2", JobsOverview.job(overview("1:s:FINISHED", "2:s:RUNNING", "3:s:CANCELED"), "s").path("jid")
        .asText());
    assertEquals("1", JobsOverview.job(overview("1:s:RUNNING", "2:s:FAILED"), "s").path("jid").asText());
    assertEquals("1", JobsOverview.job(overview("1:s:RESTARTING", "2:s:RUNNING"), "s").path("jid").asText(),
        "the first not ended");
    assertEquals("2", JobsOverview.job(overview("1:s:FINISHED", "2:s:CANCELED"), "s").path("jid").asText(),
        "all ended: the last");
  }

  @Test
  void anErrorsAnswerListsNoJobs() throws IOException {
    JsonNode error = Json.readTree("{\"errors\":[\"Not found: /jobs/overview\"]}");
    assertFalse(JobsOverview.listsJobs(error));
    assertNull(JobsOverview.job(error, "s"));
  }
}
