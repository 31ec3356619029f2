package dev.kairos.protocol.event;

import dev.kairos.core.redis.ConsumerGroups;
import dev.kairos.core.redis.KairosRedis;
import dev.kairos.core.redis.RedisKeys;
import io.lettuce.core.Consumer;
import io.lettuce.core.StreamMessage;
import io.lettuce.core.XAutoClaimArgs;
import io.lettuce.core.models.stream.ClaimedMessages;
import java.util.List;
import java.util.Objects;

/**
 * Takes over, for one consumer of a group on the events streams, the entries other consumers of the
 * group read and never acknowledged once they have been idle for {@link
 * EventsConsumerSettings#claimIdle()} (their node died): XAUTOCLAIM JUSTID over each shard's stream
 * from {@code 0-0}, up to {@link EventsConsumerSettings#batchSize()} entries a call and at most
 * {@link #MAX_ROUNDS} calls a shard. The claimed entries become this consumer's pending ones, which
 * it reads next from id {@code 0}: the caller is told each call's ids, per shard. A shard whose
 * group is missing (its stream was flushed: a Redis that lost its data) gets the group created
 * again and is skipped until the next pass.
 *
 * <p>Used by the lifecycle worker and persistence-sync alike; each counts and logs what it took. It
 * keeps no state between passes, and tells {@link Claimed} on the thread that runs the pass (the
 * worker's own, so the callback may touch the worker's thread-confined fields).
 */
public final class IdleEntryClaimer {

  /** XAUTOCLAIM calls per shard and pass: bounds one pass over a huge backlog of idle entries. */
  public static final int MAX_ROUNDS = 100;

  /** Told the ids one XAUTOCLAIM call took over on a shard (never an empty list). */
  @FunctionalInterface
  public interface Claimed {
    void claimed(int shard, List<String> ids);
  }

  private final KairosRedis redis;
  private final EventsConsumerSettings settings;
  private final Consumer<String> me;

  public IdleEntryClaimer(KairosRedis redis, EventsConsumerSettings settings) {
    this.redis = Objects.requireNonNull(redis, "redis");
    this.settings = Objects.requireNonNull(settings, "settings");
    this.me = Consumer.from(settings.group(), settings.consumer());
  }

  /** One pass over shards {@code 0..shards-1}, in order; {@code claimed} is told what it took. */
  public void claim(int shards, Claimed claimed) {
    for (int s = 0; s < shards; s++) {
      claimShard(s, claimed);
    }
  }

  private void claimShard(int shard, Claimed claimed) {
    String start = "0-0";
    int rounds = 0;
    do {
      ClaimedMessages<String, String> taken;
      try {
        taken =
            redis
                .sync()
                .xautoclaim(
                    RedisKeys.events(shard),
                    XAutoClaimArgs.Builder.justid(me, settings.claimIdle(), start)
                        .count(settings.batchSize()));
      } catch (RuntimeException e) {
        if (ConsumerGroups.isNoGroup(e)) {
          ConsumerGroups.create(redis, RedisKeys.events(shard), settings.group());
          return;
        }
        throw e;
      }
      if (!taken.getMessages().isEmpty()) {
        claimed.claimed(shard, taken.getMessages().stream().map(StreamMessage::getId).toList());
      }
      start = taken.getId();
    } while (!"0-0".equals(start) && ++rounds < MAX_ROUNDS);
  }
}
