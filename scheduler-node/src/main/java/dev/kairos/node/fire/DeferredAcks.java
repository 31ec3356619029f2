package dev.kairos.node.fire;

import dev.kairos.protocol.wheel.NodeWheelStore;
import dev.kairos.protocol.wheel.NodeWheelStore.DispatchAck;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * This node's broker acknowledgements, recorded per shard in groups: an ack waits up to the linger
 * and then goes with every other ack of its shard in one {@code ack_dispatched} call (at once when
 * a shard has a full group). With fires spread over 64 shards an ack sent the moment the broker
 * answers is nearly always alone; waiting a fraction of a second makes one call carry many.
 *
 * <p>Nothing waits on an ack: the executor claims the start from the message, whatever the record's
 * state. Until its ack is recorded a trigger stays in this node's inflight set, so a node that dies
 * with acks still buffered leaves those triggers to be sent again by whoever takes its entries
 * over, and the executor reports the copy DUPLICATE: a wider window for a duplicate message, never
 * for a second start. The linger must stay well below the inflight resend delay.
 *
 * <p>Thread-safe. {@link #close} records what is buffered (best effort) and stops the timer task.
 */
final class DeferredAcks implements AutoCloseable {

  private final NodeWheelStore store;
  private final int flushAt;
  private final Shard[] shards;
  private final ScheduledFuture<?> timer;

  /**
   * @param shardCount the cluster's shard count
   * @param lingerMs how long an ack may wait for others of its shard; > 0
   * @param flushAt a shard's group goes at once when it holds this many
   * @param timer runs the periodic flush (never blocks in it)
   */
  DeferredAcks(
      NodeWheelStore store,
      int shardCount,
      long lingerMs,
      int flushAt,
      ScheduledExecutorService timer) {
    if (lingerMs <= 0 || flushAt < 1) {
      throw new IllegalArgumentException("lingerMs and flushAt must be positive");
    }
    this.store = store;
    this.flushAt = flushAt;
    this.shards = new Shard[shardCount];
    for (int i = 0; i < shardCount; i++) {
      shards[i] = new Shard(i);
    }
    this.timer =
        timer.scheduleWithFixedDelay(this::flushAll, lingerMs, lingerMs, TimeUnit.MILLISECONDS);
  }

  /**
   * Buffers one ack; the answer says whether the entry was in this node's inflight set (false: the
   * leader moved it to another node). Completes on a Redis reply thread.
   */
  CompletableFuture<Boolean> add(int shard, DispatchAck ack) {
    Shard s = shards[shard];
    CompletableFuture<Boolean> answer = new CompletableFuture<>();
    List<Pending> full = null;
    synchronized (s) {
      s.pending.add(new Pending(ack, answer));
      if (s.pending.size() >= flushAt) {
        full = s.drain();
      }
    }
    if (full != null) {
      send(shard, full);
    }
    return answer;
  }

  /** Acks buffered and not yet sent (a gauge). */
  int buffered() {
    int n = 0;
    for (Shard s : shards) {
      synchronized (s) {
        n += s.pending.size();
      }
    }
    return n;
  }

  void flushAll() {
    for (Shard s : shards) {
      List<Pending> group;
      synchronized (s) {
        group = s.pending.isEmpty() ? null : s.drain();
      }
      if (group != null) {
        send(s.index, group);
      }
    }
  }

  private void send(int shard, List<Pending> group) {
    List<DispatchAck> acks = new ArrayList<>(group.size());
    for (Pending p : group) {
      acks.add(p.ack);
    }
    CompletableFuture<List<Boolean>> call;
    try {
      call = store.ackDispatchedGroupAsync(shard, acks).toCompletableFuture();
    } catch (RuntimeException e) {
      call = CompletableFuture.failedFuture(e);
    }
    call.whenComplete(
        (answers, failure) -> {
          for (int i = 0; i < group.size(); i++) {
            if (failure != null) {
              group.get(i).answer.completeExceptionally(failure);
            } else {
              group.get(i).answer.complete(answers.get(i));
            }
          }
        });
  }

  @Override
  public void close() {
    timer.cancel(false);
    flushAll();
  }

  private record Pending(DispatchAck ack, CompletableFuture<Boolean> answer) {}

  private static final class Shard {
    final int index;
    List<Pending> pending = new ArrayList<>();

    Shard(int index) {
      this.index = index;
    }

    /** Under the shard's lock. */
    List<Pending> drain() {
      List<Pending> group = pending;
      pending = new ArrayList<>();
      return group;
    }
  }
}
