package dev.h2beam.transforms.gated;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A step's verdict: {@code select} (the candidate becomes the current harness), {@code reject} (reverted) or
 * {@code skip} (no candidate), with the policy that decided, its version, the reason and the score pairs.
 */
public record Decision(String outcome, String policy, String policyVersion, String reason, List<Double> candidate,
    List<Double> current) {

  public Decision {
    if (!List.of("select", "reject", "skip").contains(outcome)) {
      throw new IllegalArgumentException("outcome must be select, reject or skip, got " + outcome);
    }
    candidate = java.util.Collections.unmodifiableList(new ArrayList<>(candidate));
    current = java.util.Collections.unmodifiableList(new ArrayList<>(current));
  }

  public boolean selected() {
    return outcome.equals("select");
  }

  public Map<String, Object> toJson() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("outcome", outcome);
    m.put("policy", policy);
    m.put("policy_version", policyVersion);
    m.put("reason", reason);
    List<Object> pairs = new ArrayList<>();
    for (int i = 0; i < candidate.size(); i++) pairs.add(java.util.Arrays.asList(candidate.get(i), current.get(i)));
    m.put("pairs", pairs);
    return m;
  }
}
