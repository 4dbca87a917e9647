package dev.h2beam.pipelines.report;

import com.fasterxml.jackson.core.util.ByteArrayBuilder;
import dev.h2beam.adapters.model.Tokens;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A compact binary form of {@link NamespaceFacts}, the element every namespace's files become and the report's side
 * input gathers (its Beam coders are in {@link ReportPipeline}). The runner copies that side input whole several times
 * (the DirectRunner clones a grouped key's values for each bundle that adds to them), and over 100 namespaces x 500
 * tasks the facts are about a hundred megabytes of JSON, most of it the same metric names, modes and reasons repeated
 * 100,000 times. Here each distinct string of one namespace is written once and referred to by number after, numbers
 * are varints and doubles raw bits, so a copy is a fraction of the JSON's size and time, and decoded facts share their
 * repeated strings.
 *
 * <p>Deterministic: the same facts give the same bytes (lists in order, maps sorted as the records keep them). A
 * component added to one of the records must be added here too; {@code RecordCodersTest} lists the components this
 * form writes and fails when a record has one more.
 */
final class FactsCodec {
  private FactsCodec() {}

  /** The facts in this form. */
  static byte[] toBytes(NamespaceFacts f) throws IOException {
    if (f == null) throw new IOException("cannot encode null namespace facts");
    // Jackson's builder has no lock: a ByteArrayOutputStream takes its lock for every single-byte write of a varint or
    // flag (half of packing a namespace's facts, with the compiler that runs the report, which does not remove
    // uncontended locks)
    ByteArrayBuilder bytes = new ByteArrayBuilder(4096);
    Writer w = new Writer(new DataOutputStream(bytes));
    w.string(f.dir());
    w.out.writeBoolean(f.judgedPresent());
    w.size(f.rows().size());
    for (Scored s : f.rows()) w.scored(s);
    w.size(f.summaries().size());
    for (TaskSummary t : f.summaries()) w.summary(t);
    w.identity(f.identity());
    w.out.writeBoolean(f.metricsPresent());
    w.size(f.metrics().size());
    for (MetricRow m : f.metrics()) w.metric(m);
    w.out.flush();
    return bytes.toByteArray();
  }

  /** The facts {@link #toBytes} wrote. */
  static NamespaceFacts fromBytes(byte[] bytes) throws IOException {
    Reader r = new Reader(new DataInputStream(new In(bytes)));
    String dir = r.string();
    boolean judged = r.in.readBoolean();
    List<Scored> rows = new ArrayList<>();
    for (int i = r.size(); i > 0; i--) rows.add(r.scored());
    List<TaskSummary> summaries = new ArrayList<>();
    for (int i = r.size(); i > 0; i--) summaries.add(r.summary());
    RunIdentity identity = r.identity();
    boolean metricsPresent = r.in.readBoolean();
    List<MetricRow> metrics = new ArrayList<>();
    for (int i = r.size(); i > 0; i--) metrics.add(r.metric());
    if (r.in.available() > 0) throw new IOException("corrupt namespace facts: " + r.in.available()
        + " byte(s) after the end");
    return new NamespaceFacts(dir, judged, rows, summaries, identity, metricsPresent, metrics);
  }

  /** The bytes to read, as a {@code ByteArrayInputStream} without its lock (see {@link #toBytes}). */
  private static final class In extends InputStream {
    private final byte[] buf;
    private int pos;

    In(byte[] buf) {
      this.buf = buf;
    }

    @Override public int read() {
      return pos < buf.length ? buf[pos++] & 0xff : -1;
    }

    @Override public int read(byte[] b, int off, int len) {
      if (len == 0) return 0;
      if (pos >= buf.length) return -1;
      int n = Math.min(len, buf.length - pos);
      System.arraycopy(buf, pos, b, off, n);
      pos += n;
      return n;
    }

    @Override public int available() {
      return buf.length - pos;
    }
  }

  /** Writes one element; strings go into its table on first use. */
  private static final class Writer {
    final DataOutputStream out;
    private final Map<String, Integer> table = new HashMap<>();

    Writer(DataOutputStream out) {
      this.out = out;
    }

    void size(int n) throws IOException {
      varint(n);
    }

    void varint(int v) throws IOException {
      while ((v & ~0x7F) != 0) {
        out.writeByte((v & 0x7F) | 0x80);
        v >>>= 7;
      }
      out.writeByte(v);
    }

    /** 0 = null, 1 = a new string (its UTF-8 bytes follow), n + 2 = the table's n-th string. */
    void string(String s) throws IOException {
      if (s == null) {
        varint(0);
        return;
      }
      Integer known = table.get(s);
      if (known != null) {
        varint(known + 2);
        return;
      }
      table.put(s, table.size());
      byte[] b = s.getBytes(StandardCharsets.UTF_8);
      varint(1);
      varint(b.length);
      out.write(b);
    }

    void nullableDouble(Double d) throws IOException {
      out.writeBoolean(d != null);
      if (d != null) out.writeDouble(d);
    }

    void scored(Scored s) throws IOException {
      string(s.taskId());
      string(s.mode());
      out.writeInt(s.k());
      string(s.label());
      string(s.runId());
      out.writeBoolean(s.chosenIsBase());
      nullableDouble(s.nPassed());
      nullableDouble(s.nCriteria());
      out.writeBoolean(s.allPass());
      string(s.metric());
      string(s.error());
      string(s.absence());
      nullableDouble(s.repeatSd());
    }

    void summary(TaskSummary t) throws IOException {
      string(t.path());
      string(t.taskId());
      size(t.modes().size());
      for (Map.Entry<String, TaskSummary.ModeSpend> e : t.modes().entrySet()) {
        string(e.getKey());
        TaskSummary.ModeSpend m = e.getValue();
        out.writeInt(m.fellBack());
        out.writeDouble(m.improverUsd());
        out.writeDouble(m.executorUsd());
        out.writeInt(m.lessonsScreened());
        out.writeBoolean(m.budget() != null);
        if (m.budget() != null) {
          out.writeInt(m.budget().rollouts());
          out.writeInt(m.budget().sessions());
        }
        varint(m.improverUnknown());
        varint(m.executorUnknown());
        out.writeBoolean(m.tokens() != null);
        if (m.tokens() != null) {
          out.writeLong(m.tokens().input());
          out.writeLong(m.tokens().output());
          out.writeBoolean(m.tokens().known());
        }
        out.writeBoolean(m.attempts() != null);
        if (m.attempts() != null) {
          varint(m.attempts().count());
          out.writeBoolean(m.attempts().known());
        }
        out.writeBoolean(m.gate() != null);
        if (m.gate() != null) {
          varint(m.gate().steps());
          // a count not recorded is not 0: written as one more than the count, 0 for none
          varint(m.gate().methodFailed() == null ? 0 : m.gate().methodFailed() + 1);
          out.writeBoolean(m.gate().baseFinal());
        }
      }
      size(t.finals().size());
      for (Map.Entry<String, List<String>> e : t.finals().entrySet()) {
        string(e.getKey());
        size(e.getValue().size());
        for (String label : e.getValue()) string(label);
      }
      out.writeBoolean(t.deadBases() != null);
      if (t.deadBases() != null) {
        out.writeDouble(t.deadBases().usd());
        varint(t.deadBases().unknown());
        TaskSummary.TokenCount tokens = t.deadBases().tokens();
        out.writeLong(tokens.input());
        out.writeLong(tokens.output());
        varint(tokens.partial());
        varint(tokens.notRecorded());
      }
      varint(t.retried());
      out.writeBoolean(t.afterJudged());
      size(t.choices().size());
      for (Map.Entry<String, TaskSummary.Choice> e : t.choices().entrySet()) {
        string(e.getKey());
        varint(e.getValue().position());
        varint(e.getValue().candidates());
      }
    }

    void identity(RunIdentity id) throws IOException {
      out.writeBoolean(id != null);
      if (id == null) return;
      string(id.path());
      string(id.executor());
      string(id.improver());
      string(id.judge());
      // a seed of any size, as harness2's: its digits
      string(id.seed() == null ? null : id.seed().toString());
      string(id.timing());
      out.writeBoolean(id.timingMixed());
      string(id.cohort());
      string(id.writers());
      string(id.gate());
    }

    void metric(MetricRow m) throws IOException {
      string(m.taskId());
      string(m.mode());
      out.writeInt(m.k());
      size(m.values().size());
      for (Map.Entry<String, Double> e : m.values().entrySet()) {
        string(e.getKey());
        nullableDouble(e.getValue());
      }
      size(m.absent().size());
      for (Map.Entry<String, String> e : m.absent().entrySet()) {
        string(e.getKey());
        string(e.getValue());
      }
    }
  }

  /** Reads one element, building the same table as the writer did. */
  private static final class Reader {
    final DataInputStream in;
    private final List<String> table = new ArrayList<>();
    private final Map<List<String>, String[]> keySets = new HashMap<>();

    Reader(DataInputStream in) {
      this.in = in;
    }

    int size() throws IOException {
      int n = varint();
      if (n < 0) throw new IOException("corrupt namespace facts: negative size " + n);
      return n;
    }

    int varint() throws IOException {
      int v = 0;
      for (int shift = 0; shift < 35; shift += 7) {
        int b = in.readUnsignedByte();
        v |= (b & 0x7F) << shift;
        if ((b & 0x80) == 0) return v;
      }
      throw new IOException("corrupt namespace facts: varint longer than 5 bytes");
    }

    String string() throws IOException {
      int code = varint();
      if (code == 0) return null;
      if (code == 1) {
        byte[] b = new byte[size()];
        in.readFully(b);
        String s = new String(b, StandardCharsets.UTF_8);
        table.add(s);
        return s;
      }
      if (code - 2 >= table.size()) throw new IOException("corrupt namespace facts: string " + (code - 2)
          + " referred to before it was written");
      return table.get(code - 2);
    }

    Double nullableDouble() throws IOException {
      return in.readBoolean() ? in.readDouble() : null;
    }

    Scored scored() throws IOException {
      return new Scored(string(), string(), in.readInt(), string(), string(), in.readBoolean(), nullableDouble(),
          nullableDouble(), in.readBoolean(), string(), string(), string(), nullableDouble());
    }

    TaskSummary summary() throws IOException {
      String path = string();
      String taskId = string();
      String[] modeKeys = new String[size()];
      Object[] modes = new Object[modeKeys.length];
      for (int i = 0; i < modeKeys.length; i++) {
        modeKeys[i] = string();
        int fellBack = in.readInt();
        double improverUsd = in.readDouble();
        double executorUsd = in.readDouble();
        int screened = in.readInt();
        TaskSummary.Budget budget = in.readBoolean() ? new TaskSummary.Budget(in.readInt(), in.readInt()) : null;
        int improverUnknown = size();
        int executorUnknown = size();
        Tokens tokens = in.readBoolean() ? new Tokens(in.readLong(), in.readLong(), in.readBoolean()) : null;
        TaskSummary.Attempts attempts = in.readBoolean() ? new TaskSummary.Attempts(size(), in.readBoolean()) : null;
        TaskSummary.GateSteps gate = null;
        if (in.readBoolean()) {
          int steps = size();
          int failed = size();
          gate = new TaskSummary.GateSteps(steps, failed == 0 ? null : failed - 1, in.readBoolean());
        }
        modes[i] = new TaskSummary.ModeSpend(fellBack, improverUsd, executorUsd, screened, budget, improverUnknown,
            executorUnknown, tokens, attempts, gate);
      }
      String[] finalKeys = new String[size()];
      Object[] finals = new Object[finalKeys.length];
      for (int i = 0; i < finalKeys.length; i++) {
        finalKeys[i] = string();
        String[] labels = new String[size()];
        for (int j = 0; j < labels.length; j++) labels[j] = string();
        finals[i] = List.of(labels);
      }
      TaskSummary.DeadBases deadBases = in.readBoolean() ? new TaskSummary.DeadBases(in.readDouble(), size(),
          new TaskSummary.TokenCount(in.readLong(), in.readLong(), size(), size())) : null;
      int retried = size();
      boolean afterJudged = in.readBoolean();
      String[] choiceKeys = new String[size()];
      Object[] choices = new Object[choiceKeys.length];
      for (int i = 0; i < choiceKeys.length; i++) {
        choiceKeys[i] = string();
        choices[i] = new TaskSummary.Choice(size(), size());
      }
      return new TaskSummary(path, taskId, map(modeKeys, modes), map(finalKeys, finals), deadBases,
          map(choiceKeys, choices), retried, afterJudged);
    }

    RunIdentity identity() throws IOException {
      if (!in.readBoolean()) return null;
      String path = string();
      String executor = string();
      String improver = string();
      String judge = string();
      String digits = string();
      BigInteger seed = digits == null ? null : new BigInteger(digits);
      String timing = string();
      boolean mixed = in.readBoolean();
      String cohort = string();
      String writers = string();
      return new RunIdentity(path, executor, improver, judge, seed, timing, mixed, cohort, writers, string());
    }

    MetricRow metric() throws IOException {
      String taskId = string();
      String mode = string();
      int k = in.readInt();
      String[] valueKeys = new String[size()];
      Object[] values = new Object[valueKeys.length];
      for (int i = 0; i < valueKeys.length; i++) {
        valueKeys[i] = string();
        values[i] = nullableDouble();
      }
      String[] absentKeys = new String[size()];
      Object[] absent = new Object[absentKeys.length];
      for (int i = 0; i < absentKeys.length; i++) {
        absentKeys[i] = string();
        absent[i] = string();
      }
      return new MetricRow(taskId, mode, k, map(valueKeys, values), map(absentKeys, absent));
    }

    /**
     * The map the writer wrote from a sorted map: its keys come in order. One array of keys is kept per set of keys
     * (every row of a namespace names the same metrics), not one per map.
     */
    private <V> SortedArrayMap<V> map(String[] keys, Object[] values) throws IOException {
      String[] same = keySets.putIfAbsent(Arrays.asList(keys), keys);
      try {
        return SortedArrayMap.ofSorted(same == null ? keys : same, values);
      } catch (IllegalArgumentException e) {
        throw new IOException("corrupt namespace facts: " + e.getMessage(), e);
      }
    }
  }
}
