package dev.h2beam.pipelines.report;

import dev.h2beam.adapters.files.Json;
import dev.h2beam.transforms.gated.GatedMethods;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * Which method and selection policy the gated mode ran in a namespace, as its config.json records them: {@code gate}
 * ({@code {"method", "policy", "min_win_margin"}}) and, from the h2beam that records it, {@code gate_code}
 * ({@code {"method": {"class", "code", "from"}, "policy": {...}}}, {@code code} "h2beam" for h2beam's own). The
 * report names them wherever it shows the gated mode's results or compares it, says when the method is a plug-in
 * (whose budget and blindness hold only for the calls made through its API), and in how many steps it failed.
 *
 * @param method the method's name; null when config.json records none (then the policy is not known either)
 * @param policy the policy's name; null when not recorded
 * @param methodCode which code the method is; null when config.json records no {@code gate_code}
 * @param margin the policy's {@code min_win_margin} as recorded (canonical JSON); null when not recorded
 */
record GateSetup(String method, String policy, Code methodCode, String margin) {
  /** A namespace whose config.json records no gate (an older h2beam's, or none). */
  static final GateSetup NONE = new GateSetup(null, null, null, null);

  /** The value of {@code gate_code}'s {@code code} for a method or policy shipped in h2beam itself. */
  static final String BUILT_IN = dev.h2beam.adapters.plugin.PluginCode.BUILT_IN;

  /**
   * One entry of {@code gate_code}.
   *
   * @param className its {@code class}
   * @param code {@value #BUILT_IN} or {@code sha256:<hex>}
   * @param from the jar or class folder a plug-in was loaded from; null for h2beam's own
   */
  record Code(String className, String code, String from) {
    boolean plugin() {
      return code != null && !code.equals(BUILT_IN);
    }
  }

  /** Namespaces (by name, in report order) whose config.json records one setup. */
  record Group(GateSetup setup, List<String> namespaces) {}

  /** The setup a namespace's config.json records ({@link RunIdentity#gate}); {@link #NONE} when it records none. */
  static GateSetup of(RunIdentity id) {
    if (id == null || id.gate() == null) return NONE;
    Map<String, Object> recorded;
    try {
      recorded = Json.readMap(id.gate());
    } catch (IOException e) {
      return NONE;
    }
    if (!(recorded.get("gate") instanceof Map<?, ?> gate) || !(gate.get("method") instanceof String method)) {
      return NONE;
    }
    Code code = null;
    if (recorded.get("gate_code") instanceof Map<?, ?> codes && codes.get("method") instanceof Map<?, ?> m) {
      code = new Code(text(m.get("class")), text(m.get("code")), text(m.get("from")));
    }
    Object margin = gate.get("min_win_margin");
    return new GateSetup(method, text(gate.get("policy")), code, margin == null ? null : Json.canonical(margin));
  }

  /** The namespaces' setups, each with the namespaces that record it, in the order first met. */
  static List<Group> groups(Map<NamespaceRef, RunIdentity> identities) {
    Map<GateSetup, List<String>> by = new LinkedHashMap<>();
    identities.forEach((ns, id) -> by.computeIfAbsent(of(id), x -> new ArrayList<>()).add(ns.name()));
    List<Group> out = new ArrayList<>();
    by.forEach((setup, names) -> out.add(new Group(setup, names)));
    return out;
  }

  /** {@code gated (method best-of-two, policy score_comparison)}. */
  String label() {
    if (method == null) return "gated (method and policy not recorded in config.json)";
    return "gated (method " + method + ", policy " + (policy == null ? "not recorded" : policy) + ")";
  }

  /** Which code the method is: {@code h2beam}, a plug-in's digest cut short, or null when not recorded. */
  String code() {
    String c = methodCode == null ? null : methodCode.code();
    return c == null || c.length() <= 19 ? c : c.substring(0, 19) + "...";
  }

  /** {@link #label()} with the margin and the method's code, where two methods are told apart by them. */
  String fullLabel() {
    return label() + (margin == null ? "" : ", margin " + margin) + (code() == null ? "" : ", code " + code());
  }

  /**
   * The line that discloses a plug-in method: what h2beam holds it to and what it cannot see; null for h2beam's own
   * method, or when config.json does not say which code the method is.
   */
  String pluginLine() {
    if (methodCode == null || !methodCode.plugin()) return null;
    String where = methodCode.className() + (methodCode.from() == null ? "" : " from " + methodCode.from());
    return "the method " + method + " is a plug-in (" + where + "): its budget and blindness hold for the calls"
        + " it makes through its API (the models and inputs h2beam hands it); what else its code does is neither"
        + " counted in the ledger nor seen by this report (README: \"What a method is trusted with\")";
  }

  /**
   * Each group's label, with the namespaces that record it, then the plug-in line of each setup that has one when
   * {@code plugins}; each line after {@code indent}.
   */
  static List<String> lines(List<Group> groups, String indent, boolean plugins) {
    List<String> out = new ArrayList<>();
    for (Group g : groups) out.add(indent + g.setup().label() + " in " + String.join(", ", g.namespaces()));
    if (plugins) {
      for (Group g : groups) if (g.setup().pluginLine() != null) out.add(indent + g.setup().pluginLine());
    }
    return out;
  }

  /** The methods the groups record, sorted; empty when none records one. */
  static List<String> methods(List<Group> groups) {
    TreeSet<String> out = new TreeSet<>();
    for (Group g : groups) if (g.setup().method() != null) out.add(g.setup().method());
    return new ArrayList<>(out);
  }

  /** Whether the methods named are h2beam's default {@code improver} alone, or none is recorded (then the default). */
  static boolean improver(List<String> methods) {
    return methods.isEmpty() || methods.equals(List.of(GatedMethods.DEFAULT));
  }

  /**
   * The gated mode's steps over some tasks ({@link TaskSummary.GateSteps}, null for a task whose summary records no
   * gate): in how many its method failed, against the steps of the tasks that record {@code method_failed}.
   */
  record Failures(long failed, long steps, int allBase, int recorded, int notRecorded) {
    static final Failures NONE = new Failures(0, 0, 0, 0, 0);

    Failures plus(TaskSummary.GateSteps g) {
      if (g == null) return this;
      if (g.methodFailed() == null) return new Failures(failed, steps, allBase, recorded, notRecorded + 1);
      return new Failures(failed + g.methodFailed(), steps + g.steps(), allBase + (g.baseFinal() ? 1 : 0),
          recorded + 1, notRecorded);
    }

    /**
     * {@code gated: the method failed in 3 of 12 steps (method_errors in the summaries)}, with what it means when it
     * failed in every step; null when it failed in none, or no summary records {@code method_failed} (not known, so
     * never said to be 0).
     */
    String line() {
      if (failed == 0) return null;
      String out = "gated: the method failed in " + failed + " of " + steps + " steps (method_errors in the summaries)";
      if (failed == steps && notRecorded == 0) {
        // no step had both the method's proposal and its scores; with no candidate kept, the final is the base
        out += allBase == recorded ? ": its score is the base harness's, not the method's work"
            : ": no step had both its proposal and its scores, so its score is not the method's work";
      }
      return out + (notRecorded == 0 ? "" : "; " + notRecorded + " task(s) record no method_failed (not counted, not"
          + " zero)");
    }
  }

  private static String text(Object o) {
    return o instanceof String s ? s : null;
  }
}
