package dev.kairos.drills.bench;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalLong;

/**
 * What {@link ScaleBench} measured at one level, and its rows of the result tables (Markdown; each
 * {@code ...Header()} names the columns of the matching {@code ...Line()}).
 *
 * @param jobs jobs stored at this level
 * @param baselineUsedMemory Redis' {@code used_memory} before the first job
 * @param heaps bytes of heap in use after a full collection, by process name (node-1, exec-1, …)
 * @param rebuild null when the run skipped the rebuild (or it failed)
 * @param api null when the API probe did not run (the level failed before it)
 */
record ScaleLevel(
    long jobs,
    ScaleImport.Result imported,
    ScanProbe.Result scan,
    JobMemory memory,
    long baselineUsedMemory,
    PgSizes pg,
    Map<String, OptionalLong> heaps,
    RebuildProbe.Result rebuild,
    ApiProbe.Result api) {

  static String importHeader() {
    return "| jobs | imported | import s (calls, callers) | jobs/s | Redis used_memory MB | used_memory"
        + " growth / job B | job hash B (MEMORY USAGE) | definition B (fields + values) | per-shard"
        + " keys / job B | store / job B | beyond definition / job B | event streams MB | Redis"
        + " keys |\n"
        + "|---|---|---|---|---|---|---|---|---|---|---|---|---|";
  }

  String importLine() {
    return String.format(
        Locale.ROOT,
        "| %,d | %,d | %.1f (%,d, %d) | %,.0f | %,.1f | %,.0f | %,.0f | %,.0f | %,.1f | %,.0f | %,.0f |"
            + " %,.1f | %,d |",
        jobs,
        imported.added(),
        imported.seconds(),
        imported.calls(),
        imported.callers(),
        imported.jobsPerSecond(),
        memory.usedMemory() / 1e6,
        (memory.usedMemory() - baselineUsedMemory) / (double) jobs,
        memory.hashBytes(),
        memory.payloadBytes(),
        memory.shardKeyBytes() / (double) jobs,
        memory.storeBytesPerJob(jobs),
        memory.overheadBytesPerJob(jobs),
        memory.streamBytes() / 1e6,
        memory.keys());
  }

  static String storageHeader(List<String> processes) {
    StringBuilder head =
        new StringBuilder(
            "| jobs | kairos_job MB | B / job | kairos_trigger MB | trigger rows | B / row |"
                + " kairos_trigger_log MB | database MB |");
    StringBuilder rule = new StringBuilder("|---|---|---|---|---|---|---|---|");
    for (String p : processes) {
      head.append(' ').append(p).append(" heap MB |");
      rule.append("---|");
    }
    return head + "\n" + rule;
  }

  String storageLine(List<String> processes) {
    StringBuilder line =
        new StringBuilder(
            String.format(
                Locale.ROOT,
                "| %,d | %,.1f | %,.0f | %,.1f | %,d | %,.0f | %,.1f | %,.1f |",
                jobs,
                pg.jobBytes() / 1e6,
                pg.bytesPerJob(),
                pg.triggerBytes() / 1e6,
                pg.triggerRows(),
                pg.bytesPerTrigger(),
                pg.triggerLogBytes() / 1e6,
                pg.databaseBytes() / 1e6));
    for (String p : processes) {
      OptionalLong heap = heaps.getOrDefault(p, OptionalLong.empty());
      line.append(' ')
          .append(
              heap.isPresent() ? String.format(Locale.ROOT, "%,.1f", heap.getAsLong() / 1e6) : "–")
          .append(" |");
    }
    return line.toString();
  }

  static String scanHeader() {
    return "| jobs | window fires/s | passes | pass p50 ms | pass p99 ms | pass mean ms | fires"
        + " claimed / pass | Redis CPU ms / pass | ZRANGEBYSCORE µs / call | load 1 min before →"
        + " after |\n"
        + "|---|---|---|---|---|---|---|---|---|---|";
  }

  String scanLine() {
    long windowS = Math.max(1, (scan.toMs() - scan.fromMs()) / 1000);
    return String.format(
        Locale.ROOT,
        "| %,d | %,.0f | %,.0f | %s | %s | %s | %s | %s | %s | %.2f → %.2f |",
        jobs,
        scan.window().expected() / (double) windowS,
        scan.passes(),
        num(scan.passP50Ms(), 0),
        num(scan.passP99Ms(), 0),
        num(scan.passMeanMs(), 0),
        num(scan.firesPerPass(), 1),
        num(scan.redisCpuMillisPerPass(), 1),
        num(scan.zrangeUsecPerCall(), 1),
        scan.loadBefore(),
        scan.loadAfter());
  }

  static String burstHeader() {
    return "| jobs | burst at (UTC) | burst fires | started | missed | dup. | early | p50 ms | p99 |"
        + " max | all started after ms | window fires | missed | dup. | early | window p50 / p99 /"
        + " max ms |\n"
        + "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|";
  }

  String burstLine() {
    FireOutcome b = scan.burst();
    FireOutcome w = scan.window();
    return String.format(
        Locale.ROOT,
        "| %,d | %s | %,d | %,d | %,d | %,d | %,d | %,d | %,d | %,d | %s | %,d | %,d | %,d | %,d |"
            + " %,d / %,d / %,d |",
        jobs,
        Instant.ofEpochMilli(scan.minuteMs()),
        b.expected(),
        b.started(),
        b.missed(),
        b.duplicates(),
        b.early(),
        b.lateness().p50(),
        b.lateness().p99(),
        b.lateness().max(),
        scan.burstAllStartedAfterMs() < 0
            ? "–"
            : String.format(Locale.ROOT, "%,d", scan.burstAllStartedAfterMs()),
        w.expected(),
        w.missed(),
        w.duplicates(),
        w.early(),
        w.lateness().p50(),
        w.lateness().p99(),
        w.lateness().max());
  }

  static String rebuildHeader() {
    return "| jobs | wait for PostgreSQL s | all shards marked s | all markers final s | all jobs"
        + " back s | first new fire started s | jobs / due after (due before) | restored by"
        + " nodes | gap fires | started | not started: due before / after the flush | dup. |"
        + " early | started p50 / p99 / max ms | due scores same / later / earlier / missing |"
        + " used_memory after MB (B / job) |\n"
        + "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|";
  }

  String rebuildLine() {
    if (rebuild == null) {
      return String.format(Locale.ROOT, "| %,d | not run |", jobs);
    }
    RebuildProbe.Result r = rebuild;
    FireOutcome g = r.gap();
    RebuildProbe.Scores s = r.scores();
    return String.format(
        Locale.ROOT,
        "| %,d | %.1f | %s | %s | %s | %s | %,d / %,d (%,d) | %,.0f | %,d | %,d | %,d / %,d | %,d |"
            + " %,d | %,d / %,d / %,d | %,d / %,d / %,d / %,d | %,.1f (%,.0f) |",
        jobs,
        r.syncWaitSeconds(),
        secs(r.markedSeconds()),
        secs(r.finalSeconds()),
        secs(r.jobsBackSeconds()),
        secs(r.firstStartSeconds()),
        r.jobsAfter(),
        r.dueAfter(),
        r.dueBefore(),
        r.restoredByNodes(),
        g.expected(),
        g.started(),
        r.missedDueBeforeFlush(),
        r.missedDueAfterFlush(),
        g.duplicates(),
        g.early(),
        g.lateness().p50(),
        g.lateness().p99(),
        g.lateness().max(),
        s.same(),
        s.later(),
        s.earlier(),
        s.missing(),
        r.usedMemoryAfter() / 1e6,
        (r.usedMemoryAfter() - baselineUsedMemory) / (double) jobs);
  }

  static String apiHeader() {
    return "| jobs | call | requests | errors | p50 ms | p99 ms | max ms | bytes |\n"
        + "|---|---|---|---|---|---|---|---|";
  }

  List<String> apiLines() {
    List<String> lines = new ArrayList<>();
    if (api == null) {
      lines.add(String.format(Locale.ROOT, "| %,d | not run | | | | | | |", jobs));
      return lines;
    }
    for (ApiProbe.Call c : api.calls()) {
      lines.add(
          String.format(
              Locale.ROOT,
              "| %,d | %s `%s` | %d | %d | %s | %s | %s | %,d |",
              jobs,
              c.name(),
              c.path(),
              c.requests(),
              c.errors(),
              num(c.p50(), 1),
              num(c.p99(), 1),
              num(c.max(), 1),
              c.bytes()));
    }
    return lines;
  }

  static String exportHeader() {
    return "| jobs | list total | export status | export s | export MB | node heap before / peak /"
        + " after MB |\n"
        + "|---|---|---|---|---|---|";
  }

  String exportLine() {
    if (api == null) {
      return String.format(Locale.ROOT, "| %,d | not run | | | | |", jobs);
    }
    ExportProbe.Export e = api.export();
    return String.format(
        Locale.ROOT,
        "| %,d | %,d | %d | %s | %,.1f | %s / %s / %s |",
        jobs,
        api.listTotal(),
        e.status(),
        num(e.seconds(), 1),
        e.bytes() / 1e6,
        ExportProbe.mb(e.heapBefore()),
        ExportProbe.mb(e.heapPeak()),
        ExportProbe.mb(e.heapAfter()));
  }

  private static String num(double v, int decimals) {
    return Double.isNaN(v) ? "–" : String.format(Locale.ROOT, "%,." + decimals + "f", v);
  }

  private static String secs(double v) {
    return v < 0 ? "never" : String.format(Locale.ROOT, "%.1f", v);
  }
}
