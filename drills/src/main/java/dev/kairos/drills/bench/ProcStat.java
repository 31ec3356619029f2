package dev.kairos.drills.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.TimeUnit;

/**
 * Linux {@code /proc} readings the bench needs: a process's CPU time ({@code /proc/<pid>/stat}
 * utime + stime, plus its reaped children's), the machine's busy and total time (the {@code cpu}
 * line of {@code /proc/stat}), and the load average. The parsers are pure (tested on sample lines);
 * the readers add the I/O. Times are in clock ticks ({@code getconf CLK_TCK}, 100 on every common
 * Linux).
 */
public final class ProcStat {

  /** Whole-machine CPU time in ticks: {@code busy} excludes idle and iowait. */
  public record MachineTicks(long total, long busy) {}

  private ProcStat() {}

  /**
   * utime + stime + cutime + cstime (fields 14 to 17) of one {@code /proc/<pid>/stat} line: the
   * process's own CPU and that of its children it has waited for, so redis-server's AOF rewrites
   * and RDB saves (forked children) count as Redis' CPU once they end. The command name (field 2)
   * is in parentheses and may hold spaces and parentheses, so fields are counted after the last
   * {@code ')'}.
   */
  public static long processTicks(String statLine) {
    String[] f = fieldsFromState(statLine);
    return Long.parseLong(f[11])
        + Long.parseLong(f[12])
        + Long.parseLong(f[13])
        + Long.parseLong(f[14]);
  }

  /** utime + stime of one {@code /proc/<pid>/task/<tid>/stat} line: the thread's own CPU. */
  public static long threadTicks(String statLine) {
    String[] f = fieldsFromState(statLine);
    return Long.parseLong(f[11]) + Long.parseLong(f[12]);
  }

  /** The fields from field 3 (state) on: field n is element n - 3. */
  private static String[] fieldsFromState(String statLine) {
    int close = statLine.lastIndexOf(')');
    if (close < 0) {
      throw new IllegalArgumentException("not a /proc/<pid>/stat line: " + statLine);
    }
    String[] f = statLine.substring(close + 1).trim().split("\\s+");
    // f[0] is field 3 (state), so field n is f[n - 3].
    if (f.length < 15) {
      throw new IllegalArgumentException("too few fields in /proc/<pid>/stat: " + statLine);
    }
    return f;
  }

  /**
   * The aggregate {@code cpu} line of {@code /proc/stat}: user nice system idle iowait irq softirq
   * steal (guest time is already inside user and nice, so it is not added again).
   */
  public static MachineTicks machineTicks(String procStat) {
    for (String line : procStat.split("\n")) {
      if (line.startsWith("cpu ")) {
        String[] f = line.substring(4).trim().split("\\s+");
        long total = 0;
        for (int i = 0; i < Math.min(8, f.length); i++) {
          total += Long.parseLong(f[i]);
        }
        long idle = Long.parseLong(f[3]) + (f.length > 4 ? Long.parseLong(f[4]) : 0);
        return new MachineTicks(total, total - idle);
      }
    }
    throw new IllegalArgumentException("no aggregate cpu line in /proc/stat");
  }

  /** The 1-minute load average from the contents of {@code /proc/loadavg}. */
  public static double loadAverage1(String loadavg) {
    return Double.parseDouble(loadavg.trim().split("\\s+")[0]);
  }

  /**
   * Whether a thread's name ({@code /proc/<pid>/task/<tid>/comm}, cut to 15 characters by Linux) is
   * one of HotSpot's JIT compiler threads ("C1 CompilerThre", "C2 CompilerThre").
   */
  public static boolean isJitThread(String comm) {
    String name = comm.trim();
    return (name.startsWith("C1 Compiler") || name.startsWith("C2 Compiler"));
  }

  /**
   * CPU ticks so far of each JIT compiler thread of {@code pid}, by thread id; empty if the process
   * is gone. A compiler thread that exits takes its ticks with it, so child JVMs keep theirs alive
   * ({@code -XX:-UseDynamicNumberOfCompilerThreads}).
   */
  public static Map<Long, Long> readJitThreadTicks(long pid) {
    Map<Long, Long> ticks = new HashMap<>();
    boolean alive =
        forEachThread(
            pid,
            task -> {
              if (isJitThread(read(task.resolve("comm")))) {
                ticks.put(
                    Long.parseLong(task.getFileName().toString()),
                    threadTicks(read(task.resolve("stat"))));
              }
            });
    return alive ? ticks : Map.of();
  }

  /**
   * voluntary + nonvoluntary context switches of one {@code /proc/<pid>/task/<tid>/status} text:
   * each is the thread leaving a core (it blocked, or was preempted), so the count follows the
   * wake-ups a hand-off between threads or processes costs.
   */
  public static long contextSwitches(String statusText) {
    long sum = 0;
    int found = 0;
    for (String line : statusText.split("\n")) {
      if (line.startsWith("voluntary_ctxt_switches:")
          || line.startsWith("nonvoluntary_ctxt_switches:")) {
        sum += Long.parseLong(line.substring(line.indexOf(':') + 1).trim());
        found++;
      }
    }
    if (found != 2) {
      throw new IllegalArgumentException("no context switch counts in a /proc status text");
    }
    return sum;
  }

  /**
   * Context switches so far of every live thread of {@code pid}, summed; empty if the process is
   * gone. A thread that ended takes its count with it (the bench's processes keep theirs: pools,
   * not threads per task).
   */
  public static OptionalLong readContextSwitches(long pid) {
    long[] sum = {0};
    boolean alive =
        forEachThread(pid, task -> sum[0] += contextSwitches(read(task.resolve("status"))));
    return alive ? OptionalLong.of(sum[0]) : OptionalLong.empty();
  }

  /** Reads one thread's {@code /proc/<pid>/task/<tid>} directory. */
  private interface ThreadReader {
    void read(Path task) throws IOException;
  }

  /**
   * Hands each thread directory of {@code pid} to {@code reader}, skipping a thread that ends
   * between the listing and its read; false if the process is gone.
   */
  private static boolean forEachThread(long pid, ThreadReader reader) {
    Path tasks = Path.of("/proc", Long.toString(pid), "task");
    try (DirectoryStream<Path> dir = Files.newDirectoryStream(tasks)) {
      for (Path task : dir) {
        try {
          reader.read(task);
        } catch (NoSuchFileException e) {
          // the thread ended between the listing and the read
        }
      }
      return true;
    } catch (NoSuchFileException e) {
      return false;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + tasks, e);
    }
  }

  /**
   * {@code pid} and its live descendants (its children, their children, ...), {@code pid} first;
   * empty if {@code pid} is gone. For a server that forks a process per connection and per
   * background task, such as PostgreSQL's postmaster.
   */
  public static List<Long> processTree(long pid) {
    return ProcessHandle.of(pid)
        .map(
            root -> {
              List<Long> tree = new ArrayList<>();
              tree.add(pid);
              root.descendants().forEach(p -> tree.add(p.pid()));
              return tree;
            })
        .orElse(List.of());
  }

  /**
   * CPU ticks of {@code pid} and its live descendants so far, each with its reaped children's: a
   * child that ends between two readings moves from its own count into its parent's reaped one, so
   * the sum stays continuous. Empty if {@code pid} is gone; a descendant that ends between the
   * listing and its read is skipped (its ticks reach the parent when it is reaped).
   */
  public static OptionalLong readTreeTicks(long pid) {
    List<Long> tree = processTree(pid);
    if (tree.isEmpty()) {
      return OptionalLong.empty();
    }
    long sum = 0;
    for (long p : tree) {
      OptionalLong ticks = readProcessTicks(p);
      if (p == pid && ticks.isEmpty()) {
        return OptionalLong.empty();
      }
      sum += ticks.orElse(0);
    }
    return OptionalLong.of(sum);
  }

  /** {@link #readContextSwitches} summed over {@code pid} and its live descendants. */
  public static OptionalLong readTreeContextSwitches(long pid) {
    List<Long> tree = processTree(pid);
    if (tree.isEmpty()) {
      return OptionalLong.empty();
    }
    long sum = 0;
    for (long p : tree) {
      OptionalLong switches = readContextSwitches(p);
      if (p == pid && switches.isEmpty()) {
        return OptionalLong.empty();
      }
      sum += switches.orElse(0);
    }
    return OptionalLong.of(sum);
  }

  /** CPU ticks of {@code pid} so far, empty if the process is gone. */
  public static OptionalLong readProcessTicks(long pid) {
    try {
      return OptionalLong.of(processTicks(read(Path.of("/proc", Long.toString(pid), "stat"))));
    } catch (NoSuchFileException e) {
      return OptionalLong.empty();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read /proc/" + pid + "/stat", e);
    }
  }

  public static MachineTicks readMachineTicks() {
    try {
      return machineTicks(read(Path.of("/proc/stat")));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read /proc/stat", e);
    }
  }

  /** The 1-minute load average now, NaN where {@code /proc/loadavg} is unreadable. */
  public static double readLoadAverage1() {
    try {
      return loadAverage1(read(Path.of("/proc/loadavg")));
    } catch (IOException | RuntimeException e) {
      return Double.NaN;
    }
  }

  /** {@code getconf CLK_TCK}, or 100 (the Linux value everywhere in practice) if it fails. */
  public static long clockTicksPerSecond() {
    try {
      Process p = new ProcessBuilder("getconf", "CLK_TCK").redirectErrorStream(true).start();
      if (p.waitFor(5, TimeUnit.SECONDS) && p.exitValue() == 0) {
        return Long.parseLong(new String(p.getInputStream().readAllBytes()).trim());
      }
      p.destroyForcibly();
    } catch (IOException | RuntimeException e) {
      // fall through to the default
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    return 100;
  }

  private static String read(Path path) throws IOException {
    return Files.readString(path, StandardCharsets.UTF_8);
  }
}
