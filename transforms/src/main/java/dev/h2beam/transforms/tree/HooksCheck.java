package dev.h2beam.transforms.tree;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectReader;
import dev.h2beam.adapters.files.Json;
import dev.h2beam.adapters.model.SurfaceSpec;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * Validation rule 6: the lifecycle hooks file must have the shape the framework dispatches. A malformed hooks file
 * never fires rather than erroring, so its shape is enforced where the improver sees the problem.
 */
final class HooksCheck {
  private HooksCheck() {}

  /** Like Python's {@code json.loads}: trailing content after the document is an error. */
  private static final ObjectReader READER = Json.MAPPER.reader()
      .with(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);

  /** Appends every problem with the hooks file's text {@code src} to {@code problems}. */
  static void check(SurfaceSpec surface, String src, List<String> problems) {
    String hf = surface.hooksFile();
    JsonNode doc;
    try {
      doc = READER.readTree(src);
    } catch (JsonProcessingException e) {
      problems.add(hf + " is not valid JSON: " + Json.syntaxProblem(e));
      return;
    }
    if (doc == null || doc.isMissingNode()) {
      problems.add(hf + " is not valid JSON: the file holds no JSON value");
      return;
    }
    JsonNode hooks = doc.isObject() ? doc.get("hooks") : null;
    if (hooks == null || !hooks.isObject() || hooks.isEmpty()) {
      problems.add(hf + " needs a top-level {\"hooks\": {\"<Event>\": [...]}} object");
      return;
    }
    List<String> events = new ArrayList<>(surface.hookEvents());
    events.sort(Py.CODE_POINT_ORDER);
    for (Iterator<Map.Entry<String, JsonNode>> it = hooks.fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> e = it.next();
      String event = e.getKey();
      if (!surface.hookEvents().contains(event)) {
        problems.add(hf + ": unknown event " + Py.repr(event) + "; the framework dispatches "
            + String.join(", ", events) + " (PascalCase)");
      } else if (!e.getValue().isArray()) {
        problems.add(hf + ": " + event + " must map to a LIST of matcher entries");
      } else {
        checkEntries(hf, event, e.getValue(), problems);
      }
    }
  }

  private static void checkEntries(String hf, String event, JsonNode entries, List<String> problems) {
    for (int i = 0; i < entries.size(); i++) {
      JsonNode entry = entries.get(i);
      String where = hf + ": " + event + "[" + i + "]";
      if (!entry.isObject() || entry.get("hooks") == null || !entry.get("hooks").isArray()) {
        problems.add(where + " needs a `hooks` list");
        continue;
      }
      for (JsonNode h : entry.get("hooks")) {
        JsonNode type = h.get("type");
        if (!h.isObject() || type == null || !type.isTextual() || !type.asText().equals("command")) {
          problems.add(where + " hook type must be \"command\" — async/prompt/agent hooks are skipped as "
              + "'not supported yet'");
        } else if (Py.isBlank(commandText(h.get("command")))) {
          problems.add(where + " has an empty `command`");
        }
      }
    }
  }

  /** A command's text; a missing or null command is empty (it could never run). */
  private static String commandText(JsonNode command) {
    if (command == null || command.isNull()) return "";
    return command.isTextual() ? command.asText() : command.toString();
  }
}
