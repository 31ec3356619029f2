package dev.kairos.drills.bench;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;

/**
 * What a {@link ClusterBench} run measured, printed at its end as Markdown tables (also after a
 * failure, with the rows that finished): every row with Redis' memory and keys, the CPU per process
 * (the PostgreSQL column is the postmaster and all its children), the JIT's share, the context
 * switches, M1's bursts, MIDNIGHT's burst, the writes under load and the soak's minutes.
 */
final class Results {

  private final List<BenchRow> rows = new ArrayList<>();
  private final List<String> bursts = new ArrayList<>();
  private final List<MidnightRow.Result> midnights = new ArrayList<>();
  private final List<WriteProbe> writes = new ArrayList<>();
  private Soak.Report soak;

  void add(RecurringRow.Result result) {
    rows.add(result.row());
    result.bursts().forEach(b -> bursts.add(b.line(result.row().workload(), result.row().jobs())));
  }

  void add(MidnightRow.Result result) {
    rows.add(result.row());
    midnights.add(result);
  }

  void add(WriteProbe probe) {
    writes.add(probe);
  }

  void soak(Soak.Report report) {
    soak = report;
  }

  void print(PrintStream out, String heading, List<String> processes) {
    out.println();
    out.println(heading);
    if (!rows.isEmpty()) {
      out.println();
      out.println(BenchRow.mainHeader());
      rows.forEach(r -> out.println(r.mainLine()));
      out.println();
      out.println("CPU over the window, seconds (µs per fire started in the window):");
      out.println();
      out.println(BenchRow.cpuHeader(processes));
      rows.forEach(r -> out.println(r.cpuLine()));
      out.println();
      out.println(BenchRow.jitHeader(processes));
      rows.forEach(r -> out.println(r.jitLine()));
      out.println();
      out.println(
          "Context switches per fire started in the window (voluntary + involuntary, all threads):");
      out.println();
      out.println(BenchRow.switchesHeader(processes));
      rows.forEach(r -> out.println(r.switchesLine()));
    }
    if (!bursts.isEmpty()) {
      out.println();
      out.println("M1: every burst of the window (lateness of each fire's first start):");
      out.println();
      out.println(Burst.header());
      bursts.forEach(out::println);
    }
    if (!midnights.isEmpty()) {
      out.println();
      out.println("MIDNIGHT: one-shot jobs all due in one second:");
      out.println();
      out.println(MidnightRow.Result.header());
      midnights.forEach(m -> out.println(m.line()));
    }
    if (!writes.isEmpty()) {
      out.println();
      out.println("Writes through the API while a row's jobs keep firing:");
      out.println();
      out.println(WriteProbe.header());
      writes.forEach(w -> out.println(w.line()));
    }
    if (soak != null) {
      out.println();
      out.println(
          "Redis memory soak: "
              + soak.jobs()
              + " "
              + soak.workload()
              + " jobs; at the start "
              + soak.atStart()
              + "; then every minute:");
      out.println();
      out.println(Soak.Minute.header());
      soak.minutes().forEach(m -> out.println(m.line()));
    }
  }
}
