package dev.h2beam.pipelines.report;

import static dev.h2beam.pipelines.report.Fixtures.scored;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.awt.image.BufferedImage;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The HTML report: self-contained, readable without JavaScript, and rendered by a real headless Chromium. */
class HtmlReportTest {
  static final Path RUNS = Path.of("/runs");
  static final Path CHROMIUM = Path.of("/usr/bin/chromium");

  /** Two seeds at k=1 and k=2 (error bars), one ungraded row, spend in both modes. */
  static Report.Result report() {
    return report(Disclosure.AGGREGATE);
  }

  /** The same under disclosure {@code d}. */
  static Report.Result report(Disclosure d) {
    List<NamespaceRef> refs = new ArrayList<>();
    List<NamespaceFacts> facts = new ArrayList<>();
    RunIdentity id = new RunIdentity("c", "demo/oc", "opencode:m", "judge-1", null);
    for (String name : List.of("demo-oc-agg1-s1", "demo-oc-agg1-s2", "demo-oc-agg2-s1", "demo-oc-agg2-s2")) {
      NamespaceRef ref = Fixtures.ref(RUNS, name);
      refs.add(ref);
      int k = ref.k();
      int seed = ref.seed().intValue();
      List<Scored> rows = new ArrayList<>();
      rows.add(scored("t1", "agg", k, "agg1", k == 2 ? 4 : 2, 4, k == 2));
      rows.add(scored("t2", "agg", k, "agg1", seed == 1 ? 4 : 2, 4, seed == 1));
      rows.add(scored("t1", "seq", k, "c1", 2, 4, false));
      rows.add(seed == 1 ? scored("t2", "seq", k, "c1", 3, 4, false) : Fixtures.absent("t2", "seq", k, "judge-failed"));
      TaskSummary.ModeSpend agg = new TaskSummary.ModeSpend(0, 1.5, 0.0);
      TaskSummary.ModeSpend seq = new TaskSummary.ModeSpend(0, 0.75, 0.0);
      facts.add(new NamespaceFacts(ref.dir(), true, rows, List.of(new TaskSummary("s", "t1",
          Map.of("agg", agg, "seq", seq))), id));
    }
    ReportSettings s = new ReportSettings(refs, List.of(), List.of("agg", "seq"), "demo", d, 5.0, "/out");
    return Report.build(s, facts, List.of());
  }

  @Test
  void pageIsSelfContainedWithNoScriptAndNothingToFetch() {
    String html = report().html();
    assertTrue(html.startsWith("<!DOCTYPE html>"));
    for (String banned : List.of("<script", "http://", "https://", "src=", "<link", "@import", "url(", "href=")) {
      assertFalse(html.contains(banned), banned);
    }
    assertTrue(html.contains("<svg "), "charts are inline SVG");
  }

  @Test
  void pageDrawsTheNoiseFloorBandErrorBarsCoverageAndSpendPerMode() {
    String html = report().html();
    assertTrue(html.contains("k=1 noise floor: "), "noise-floor band");
    assertTrue(html.contains("(2 replicates)"), "an error-bar point names its replicates");
    assertTrue(html.contains("n=3, ungraded 1"), "coverage of the sequential points (pooled over both seeds)");
    assertTrue(html.contains("n=4, ungraded 0"), "coverage of the parallel points");
    assertTrue(html.contains("improver $6.00"), "parallel spend over both k and both seeds");
    assertTrue(html.contains("improver $3.00"), "sequential spend");
    // these runs record no tokens: the table keeps its columns, and the text no tokens lines
    assertTrue(html.contains("<th>executor spend</th></tr>"), html);
    assertFalse(html.contains("model tokens"), html);
  }

  /**
   * The score chart says which statistic each point is: the replicate mean ± se, or, where aggregate disclosure
   * withholds it (sequential's seed 2 is a single graded task), the pooled graded mean, labelled so; and it marks a
   * point whose replicates include a partial one (dogAA finding 3: one caption for two statistics, no partial mark).
   */
  @Test
  void theScoreChartNamesTheStatisticOfEachPointAndMarksPartialReplicates() {
    String html = report().html();
    String chart = html.substring(html.indexOf("aria-label=\"score versus k per mode\""));
    chart = chart.substring(0, chart.indexOf("</svg>"));
    assertTrue(chart.contains(">points: the replicate mean (over seeds) with bars of \u00b11 standard error (labelled"
        + " with its replicates), or, without bars, the pooled score over every graded task; the replicate mean is"
        + " withheld under aggregate disclosure where a replicate is a single task</text>"), chart);
    assertTrue(chart.contains(">partial: a replicate with ungraded tasks, scored over its graded tasks only, which"
        + " favours runs whose missing tasks would have failed</text>"), chart);
    assertTrue(chart.contains(">58.33% pooled (1 partial of 2 replicates)</text>"), chart);
    assertTrue(chart.contains(" (2 replicates)</text>"), chart);

    String released = report(Disclosure.PER_TASK).html();
    String perTask = released.substring(released.indexOf("aria-label=\"score versus k per mode\""));
    perTask = perTask.substring(0, perTask.indexOf("</svg>"));
    assertTrue(perTask.contains(">points: the replicate mean (over seeds) with bars of \u00b11 standard error</text>"),
        perTask);
    assertTrue(perTask.contains(" (2 replicates, 1 partial)</text>"), perTask);
    assertFalse(perTask.contains(" pooled"), perTask);
  }

  @Test
  void pageRendersInHeadlessChromiumAndItsTextCarriesTheReportsNumbers(@TempDir Path tmp) throws Exception {
    assumeTrue(Files.isExecutable(CHROMIUM) || System.getenv("CI") != null, "no /usr/bin/chromium on this machine");
    Report.Result r = report();
    Path html = tmp.resolve("report.html");
    Files.writeString(html, r.html(), StandardCharsets.UTF_8);
    Path png = tmp.resolve("report.png");
    chromium(tmp.resolve("profile-shot"), tmp.resolve("shot.log"), "--screenshot=" + png,
        "--window-size=1200,1600", html.toUri().toString());
    BufferedImage image = ImageIO.read(png.toFile());
    assertEquals(1200, image.getWidth());
    int inked = 0;
    for (int y = 0; y < image.getHeight(); y++) {
      for (int x = 0; x < image.getWidth(); x++) {
        int rgb = image.getRGB(x, y);
        if (((rgb >> 16) & 0xff) < 240 || ((rgb >> 8) & 0xff) < 240 || (rgb & 0xff) < 240) inked++;
      }
    }
    assertTrue(inked > image.getWidth() * image.getHeight() / 100, "screenshot is blank: " + inked + " inked pixels");

    Path dom = tmp.resolve("dom.html");
    chromium(tmp.resolve("profile-dom"), dom, "--dump-dom", html.toUri().toString());
    String text = Files.readString(dom, StandardCharsets.UTF_8);
    for (String line : r.text().lines().filter(l -> l.startsWith("  parallel k=") || l.startsWith("  sequential k="))
        .toList()) {
      // the DOM serialiser escapes only &, < and > in text
      assertTrue(text.contains(line.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")),
          "page text lacks: " + line);
    }
    assertTrue(text.contains("k=1 noise floor: "), "the noise-floor band's label is in the page");
    assertTrue(text.contains("n=3, ungraded 1"), "coverage of a point is in the page");
  }

  /** Runs Chromium headless with a fresh profile; its stdout goes to {@code out}. */
  static void chromium(Path profile, Path out, String... args) throws Exception {
    List<String> cmd = new ArrayList<>(List.of(CHROMIUM.toString(), "--headless", "--no-sandbox", "--disable-gpu",
        "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run",
        "--user-data-dir=" + profile));
    cmd.addAll(List.of(args));
    Process p = new ProcessBuilder(cmd).redirectOutput(out.toFile())
        .redirectError(out.resolveSibling(out.getFileName() + ".err").toFile()).start();
    // a guard against a hung browser, not a timing assertion
    assertTrue(p.waitFor(5, TimeUnit.MINUTES), "chromium did not exit");
    assertEquals(0, p.exitValue(), Files.readString(out.resolveSibling(out.getFileName() + ".err")));
  }
}
