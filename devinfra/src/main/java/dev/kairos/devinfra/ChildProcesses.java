package dev.kairos.devinfra;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * Server processes this JVM started. One shutdown hook kills whatever is still registered, so a
 * test JVM that exits without closing the kit (a crash, a forgotten close) leaves no orphan
 * redis-server behind. Public so other test harnesses (the drills' node and executor JVMs) register
 * their children with the same reaper.
 */
public final class ChildProcesses {

  private static final Set<Process> LIVE = ConcurrentHashMap.newKeySet();

  static {
    Runtime.getRuntime()
        .addShutdownHook(new Thread(ChildProcesses::killAll, "kairos-devinfra-process-reaper"));
  }

  private ChildProcesses() {}

  /** Kills {@code process} when this JVM exits, unless {@link #forget} was called first. */
  public static void register(Process process) {
    LIVE.add(process);
  }

  /** The caller ended {@code process} itself (or it died): the reaper need not kill it. */
  public static void forget(Process process) {
    LIVE.remove(process);
  }

  /**
   * Asks the process to terminate (SIGTERM, so Redis syncs its AOF), waits up to {@code
   * graceSeconds}, then kills it.
   */
  public static void terminate(Process process, long graceSeconds) {
    try {
      process.destroy();
      if (!process.waitFor(graceSeconds, TimeUnit.SECONDS)) {
        process.destroyForcibly().waitFor(graceSeconds, TimeUnit.SECONDS);
      }
    } catch (InterruptedException e) {
      process.destroyForcibly();
      Thread.currentThread().interrupt();
    } finally {
      LIVE.remove(process);
    }
  }

  private static void killAll() {
    LIVE.forEach(Process::destroyForcibly);
  }
}
