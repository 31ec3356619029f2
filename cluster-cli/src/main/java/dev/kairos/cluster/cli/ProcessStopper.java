package dev.kairos.cluster.cli;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Stops one process of the local cluster and everything it started: SIGTERM first (a node leaves
 * ZooKeeper, an executor releases its slot, the infrastructure JVM closes Redis with an AOF sync),
 * SIGKILL after the grace period, then SIGKILL to any descendant still alive (a redis-server whose
 * parent died). Descendants are listed before the first signal: once the parent is gone they are
 * re-parented and cannot be found from it.
 */
final class ProcessStopper {

  private ProcessStopper() {}

  /** Returns the processes (the given one and its descendants) still alive afterwards. */
  static List<ProcessHandle> stop(ProcessHandle process, Duration grace) {
    List<ProcessHandle> tree = new ArrayList<>(process.descendants().toList());
    tree.add(0, process);
    process.destroy();
    if (!await(process, grace)) {
      process.destroyForcibly();
      await(process, Duration.ofSeconds(10));
    }
    for (ProcessHandle descendant : tree.subList(1, tree.size())) {
      if (descendant.isAlive()) {
        descendant.destroyForcibly();
        await(descendant, Duration.ofSeconds(10));
      }
    }
    return tree.stream().filter(ProcessHandle::isAlive).toList();
  }

  private static boolean await(ProcessHandle process, Duration timeout) {
    try {
      process.onExit().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
      return true;
    } catch (java.util.concurrent.TimeoutException e) {
      return false;
    } catch (java.util.concurrent.ExecutionException e) {
      return !process.isAlive();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while stopping pid " + process.pid(), e);
    }
  }
}
