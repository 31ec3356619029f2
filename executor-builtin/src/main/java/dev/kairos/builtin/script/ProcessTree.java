package dev.kairos.builtin.script;

import java.time.Duration;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A script run's processes: the interpreter and every descendant seen so far. Descendants are
 * remembered as they are seen ({@link #track()}), because a child whose parent has exited is
 * re-parented and no longer shows among the root's descendants. Only the run's handler thread uses
 * an instance.
 */
final class ProcessTree {

  private final ProcessHandle root;
  private final Map<Long, ProcessHandle> seen = new LinkedHashMap<>();

  ProcessTree(ProcessHandle root) {
    this.root = root;
  }

  /** Remembers the root's current descendants. */
  void track() {
    root.descendants().forEach(p -> seen.putIfAbsent(p.pid(), p));
  }

  /** Descendants seen so far that are still running. */
  List<ProcessHandle> aliveDescendants() {
    track();
    return seen.values().stream().filter(ProcessHandle::isAlive).toList();
  }

  /**
   * Stops the whole tree: SIGTERM to the root first (so it starts nothing new), then to every
   * descendant, then SIGKILL to whatever is still running after {@code grace}.
   *
   * @return how many processes were signalled
   */
  int kill(Duration grace) throws InterruptedException {
    track();
    List<ProcessHandle> targets =
        java.util.stream.Stream.concat(java.util.stream.Stream.of(root), seen.values().stream())
            .filter(ProcessHandle::isAlive)
            .toList();
    for (ProcessHandle p : targets) {
      p.destroy();
    }
    awaitExit(targets, grace);
    // Safety: a descendant may have been started between the snapshot and the root's SIGTERM.
    track();
    for (ProcessHandle p : seen.values()) {
      if (p.isAlive()) {
        p.destroyForcibly();
      }
    }
    if (root.isAlive()) {
      root.destroyForcibly();
    }
    return targets.size();
  }

  private static void awaitExit(Collection<ProcessHandle> processes, Duration grace)
      throws InterruptedException {
    CompletableFuture<?>[] exits =
        processes.stream().map(ProcessHandle::onExit).toArray(CompletableFuture[]::new);
    try {
      CompletableFuture.allOf(exits).get(grace.toMillis(), TimeUnit.MILLISECONDS);
    } catch (TimeoutException | ExecutionException e) {
      // Still running after the grace: SIGKILL follows.
    }
  }
}
