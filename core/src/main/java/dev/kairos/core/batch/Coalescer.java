package dev.kairos.core.batch;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Groups the requests of one key (a shard, a queue) that arrive while earlier calls of that key are
 * in flight into one call: natural batching. A request that finds fewer than {@code maxInFlight}
 * calls of its key out goes at once, alone, so nothing waits for a timer at low load; under load
 * the requests that queued behind the calls in flight go together when one answers, so one round
 * trip (one script, one broker batch) carries many fires.
 *
 * <p>The answer of a call is one element per request, in request order. A call that fails fails
 * every request it carried. Futures complete on the thread that completed the call (a Redis reply
 * or broker callback thread): callers must hop to their own executor before blocking work.
 *
 * @param <K> what calls are grouped by
 * @param <R> one request
 * @param <A> one answer
 */
public final class Coalescer<K, R, A> {

  /** One call carrying a group of requests of one key. */
  @FunctionalInterface
  public interface BatchCall<K, R, A> {

    /** Must answer one element per request, in order; may throw or fail the stage. */
    CompletionStage<List<A>> call(K key, List<R> requests);
  }

  private final BatchCall<K, R, A> call;
  private final int maxBatch;
  private final int maxInFlight;
  private final ConcurrentHashMap<K, Lane> lanes = new ConcurrentHashMap<>();

  /**
   * @param maxBatch most requests in one call
   * @param maxInFlight most calls of one key out at once
   */
  public Coalescer(BatchCall<K, R, A> call, int maxBatch, int maxInFlight) {
    if (maxBatch < 1 || maxInFlight < 1) {
      throw new IllegalArgumentException(
          "maxBatch and maxInFlight must be >= 1 but were " + maxBatch + ", " + maxInFlight);
    }
    this.call = Objects.requireNonNull(call, "call");
    this.maxBatch = maxBatch;
    this.maxInFlight = maxInFlight;
  }

  /** Queues the request; it goes in the next call of its key. */
  public CompletableFuture<A> submit(K key, R request) {
    Lane lane = lanes.computeIfAbsent(key, Lane::new);
    Pending<R, A> pending = new Pending<>(request, new CompletableFuture<>());
    List<Pending<R, A>> batch;
    synchronized (lane) {
      lane.queue.add(pending);
      batch = lane.takeIfRoom();
    }
    if (batch != null) {
      send(lane, batch);
    }
    return pending.answer;
  }

  /** Requests queued and not yet sent, over every key (a gauge for operators and tests). */
  public int queued() {
    int queued = 0;
    for (Lane lane : lanes.values()) {
      synchronized (lane) {
        queued += lane.queue.size();
      }
    }
    return queued;
  }

  private void send(Lane lane, List<Pending<R, A>> batch) {
    List<R> requests = new ArrayList<>(batch.size());
    for (Pending<R, A> pending : batch) {
      requests.add(pending.request);
    }
    CompletionStage<List<A>> stage;
    try {
      stage = call.call(lane.key, requests);
    } catch (RuntimeException e) {
      stage = CompletableFuture.failedFuture(e);
    }
    stage.whenComplete(
        (answers, failure) -> {
          List<Pending<R, A>> next;
          synchronized (lane) {
            lane.inFlight--;
            next = lane.takeIfRoom();
          }
          // The next group goes out before this one's callers run, so their work overlaps it.
          if (next != null) {
            send(lane, next);
          }
          settle(batch, answers, failure);
        });
  }

  private static <R, A> void settle(List<Pending<R, A>> batch, List<A> answers, Throwable failure) {
    if (failure == null && (answers == null || answers.size() != batch.size())) {
      failure =
          new IllegalStateException(
              "a batch of "
                  + batch.size()
                  + " got "
                  + (answers == null ? "no" : answers.size())
                  + " answers");
    }
    for (int i = 0; i < batch.size(); i++) {
      if (failure != null) {
        batch.get(i).answer.completeExceptionally(failure);
      } else {
        batch.get(i).answer.complete(answers.get(i));
      }
    }
  }

  private record Pending<R, A>(R request, CompletableFuture<A> answer) {}

  private final class Lane {
    final K key;
    final ArrayDeque<Pending<R, A>> queue = new ArrayDeque<>();
    int inFlight;

    Lane(K key) {
      this.key = key;
    }

    /** Under the lane's lock: the next group when a call may go out, else null. */
    List<Pending<R, A>> takeIfRoom() {
      if (queue.isEmpty() || inFlight >= maxInFlight) {
        return null;
      }
      List<Pending<R, A>> batch = new ArrayList<>(Math.min(queue.size(), maxBatch));
      while (!queue.isEmpty() && batch.size() < maxBatch) {
        batch.add(queue.poll());
      }
      inFlight++;
      return batch;
    }
  }
}
