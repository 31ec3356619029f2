package dev.kairos.devinfra;

import java.util.Deque;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.TimeUnit;

/**
 * Server processes this JVM started. One shutdown hook kills whatever is still registered, so a
 * test JVM that exits without closing the kit (a crash, a forgotten close) leaves no orphan
 * redis-server behind. Public so other test harnesses (the drills' node and executor JVMs) register
 * their children with the same reaper.
 *
 * <p>The JVM runs shutdown hooks concurrently and in no order, so a program that must stop its
 * users of the servers before the servers (the demo: executor, node, then the components) hands
 * that to {@link #atExit}: the one hook runs it first, and reaps what is left after.
 */
public final class ChildProcesses {

  private static final Set<Process> LIVE = ConcurrentHashMap.newKeySet();
  private static final Deque<Runnable> AT_EXIT = new ConcurrentLinkedDeque<>();

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

  /**
   * Runs {@code orderly} when the JVM exits, before the reaper kills what is still registered;
   * actions registered later run first (the last component started stops first).
   */
  public static void atExit(Runnable orderly) {
    AT_EXIT.push(orderly);
  }

  private static void killAll() {
    Runnable orderly;
    while ((orderly = AT_EXIT.poll()) != null) {
      try {
        orderly.run();
      } catch (RuntimeException e) {
        // The JVM is exiting: report, then still reap the processes.
        System.err.println("kairos-devinfra: an at-exit action failed: " + e);
      }
    }
    LIVE.forEach(Process::destroyForcibly);
  }
}
