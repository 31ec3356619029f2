package dev.kairos.devinfra;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Run in its own JVM by {@link CloseLeavesNothingBehindIT}: starts all four components, reports
 * what they cost, closes them, and reports what is left. It then simply returns from main, so the
 * JVM ends by itself only if close() left no non-daemon thread.
 */
public final class InfraProbe {

  private InfraProbe() {}

  public static void main(String[] args) throws IOException {
    Path workDir = Path.of(args[0]);
    long began = System.nanoTime();
    EmbeddedInfrastructure infra =
        EmbeddedInfrastructure.builder()
            .workDir(workDir)
            .redis(RedisMode.CLUSTER)
            .zookeeper(ZkMode.STANDALONE)
            .rocketMq(true)
            .postgres(true)
            .start();
    System.out.println("PROBE STARTED_MS=" + Millis.since(began));
    System.out.println("PROBE JVM_RSS_KB=" + rssKb(Path.of("/proc/self/status")));
    // Redis nodes are our children; the postmaster is not (pg_ctl daemonizes it): find every
    // server by its work dir on the command line, then count it with its own children.
    List<ProcessHandle> servers =
        ProcessHandle.allProcesses()
            .filter(p -> p.info().commandLine().orElse("").contains(workDir.toString()))
            .toList();
    long serverKb = 0;
    long serverProcesses = 0;
    for (ProcessHandle server : servers) {
      for (ProcessHandle p :
          java.util.stream.Stream.concat(java.util.stream.Stream.of(server), server.descendants())
              .toList()) {
        serverKb += rssKb(Path.of("/proc/" + p.pid() + "/status"));
        serverProcesses++;
      }
    }
    System.out.println("PROBE SERVER_PROCESSES=" + serverProcesses);
    System.out.println("PROBE SERVER_RSS_KB=" + serverKb);
    System.out.println("PROBE THREADS=" + Thread.getAllStackTraces().size());
    infra.springProperties().forEach((k, v) -> System.out.println("PROBE PROPERTY " + k + "=" + v));

    long closing = System.nanoTime();
    infra.close();
    System.out.println("PROBE CLOSED_MS=" + Millis.since(closing));
    Thread.getAllStackTraces().keySet().stream()
        .filter(t -> t != Thread.currentThread() && t.isAlive() && !t.isDaemon())
        .forEach(t -> System.out.println("PROBE LEFT_THREAD " + t.getName()));
    ProcessHandle.current()
        .descendants()
        .forEach(
            p ->
                System.out.println(
                    "PROBE LEFT_PROCESS " + p.pid() + " " + p.info().commandLine().orElse("?")));
    System.out.println("PROBE MAIN_RETURNS");
  }

  private static long rssKb(Path status) {
    try {
      List<String> lines = Files.readAllLines(status);
      return lines.stream()
          .filter(l -> l.startsWith("VmRSS:"))
          .mapToLong(l -> Long.parseLong(l.replaceAll("[^0-9]", "")))
          .findFirst()
          .orElse(0);
    } catch (IOException e) {
      return 0; // the process ended meanwhile
    }
  }
}
