package dev.kairos.core.batch;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * Starts one asynchronous write per item with at most {@code window} of them unanswered at a time.
 *
 * <p>Why: a node's Redis commands share one connection, and Redis answers a connection's commands
 * in the order it sent them. A bulk request that put a thousand scripts on the connection at once
 * made every later command of that node (takes, acks, heartbeats) wait behind all of them; on a
 * saturated Redis that wait passed the command timeout. With a window, a later command waits behind
 * at most {@code window} of the bulk writes.
 *
 * <p>Once an answered write failed in a way the caller calls fatal (Redis gone, a timeout), the
 * remaining items are not started: their futures fail with the same cause, so a bulk request whose
 * connection is down answers within one command timeout, not one per window.
 */
public final class WriteWindow {

  /**
   * The window of the REST API's bulk writes (import, batch enable, disable, delete): 64 scripts
   * are a few milliseconds of Redis time, and keep the connection busy enough that a thousand-job
   * import still takes well under a second on an idle cluster.
   */
  public static final int BULK_API = 64;

  private WriteWindow() {}

  /**
   * @param items what to write, in order
   * @param window how many writes may be unanswered at once; at least 1
   * @param write starts one write
   * @param fatal whether a write's failure (unwrapped) ends the bulk request
   * @return one future per item, in the items' order
   */
  public static <T, R> List<CompletableFuture<R>> start(
      List<T> items,
      int window,
      Function<T, CompletableFuture<R>> write,
      Predicate<Throwable> fatal) {
    if (window < 1) {
      throw new IllegalArgumentException("window must be at least 1, was " + window);
    }
    List<CompletableFuture<R>> started = new ArrayList<>(items.size());
    Throwable stop = null;
    for (int i = 0; i < items.size(); i++) {
      if (stop == null && i >= window) {
        stop = fatalFailureOf(started.get(i - window), fatal);
      }
      started.add(stop == null ? write.apply(items.get(i)) : CompletableFuture.failedFuture(stop));
    }
    return started;
  }

  /** Waits for the write to be answered; its cause when it failed fatally, else null. */
  private static Throwable fatalFailureOf(CompletableFuture<?> write, Predicate<Throwable> fatal) {
    Throwable failure = write.handle((value, error) -> error).join();
    if (failure == null) {
      return null;
    }
    Throwable cause =
        failure instanceof CompletionException && failure.getCause() != null
            ? failure.getCause()
            : failure;
    return fatal.test(cause) ? cause : null;
  }
}
