package dev.kairos.sync.worker;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kairos.core.redis.KairosRedis;
import dev.kairos.core.redis.RedisKeys;
import dev.kairos.devinfra.EmbeddedRedis;
import dev.kairos.devinfra.RealInfra;
import dev.kairos.devinfra.RedisMode;
import io.lettuce.core.Consumer;
import io.lettuce.core.StreamMessage;
import io.lettuce.core.XGroupCreateArgs;
import io.lettuce.core.XReadArgs;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** persistence-sync trims a shard stream only below what every consumer group acknowledged. */
@RealInfra(redis = RedisMode.STANDALONE)
class StreamGroupsTrimIT {

  /** A shard number no other test uses on the shared server. */
  private static final int SHARD = 9_731;

  private static final String STREAM = RedisKeys.events(SHARD);

  private final KairosRedis redis;
  private final StreamGroups sync;

  StreamGroupsTrimIT(EmbeddedRedis server) {
    this.redis = KairosRedis.connect(List.of(server.uri()), false, Duration.ofSeconds(5));
    this.sync = new StreamGroups(redis, "kairos-sync");
  }

  @BeforeEach
  void cleanStream() {
    redis.sync().del(STREAM);
  }

  @AfterEach
  void close() {
    redis.sync().del(STREAM);
    redis.close();
  }

  @Test
  void trimStopsAtTheSlowestGroupsOldestUnacknowledgedEntry() {
    sync.ensure(SHARD);
    createGroup("kairos-lifecycle");
    for (int i = 0; i < 10; i++) {
      redis.sync().xadd(STREAM, Map.of("n", Integer.toString(i)));
    }
    List<StreamMessage<String, String>> bySync = readAndAck("kairos-sync", 10, 10);
    // The second group read 6 and acknowledged only the first 4: entries 4..9 must stay.
    readAndAck("kairos-lifecycle", 6, 4);

    assertThat(sync.trim(SHARD)).isEqualTo(4);
    List<StreamMessage<String, String>> left =
        redis.sync().xrange(STREAM, io.lettuce.core.Range.create("-", "+"));
    assertThat(left)
        .extracting(StreamMessage::getId)
        .containsExactlyElementsOf(
            bySync.subList(4, 10).stream().map(StreamMessage::getId).toList());
  }

  @Test
  void aGroupThatHasReadNothingBlocksTheTrim() {
    sync.ensure(SHARD);
    createGroup("kairos-lifecycle");
    for (int i = 0; i < 5; i++) {
      redis.sync().xadd(STREAM, Map.of("n", Integer.toString(i)));
    }
    readAndAck("kairos-sync", 5, 5);

    assertThat(sync.trim(SHARD)).isZero();
    assertThat(redis.sync().xlen(STREAM)).isEqualTo(5);

    readAndAck("kairos-lifecycle", 5, 5);
    assertThat(sync.trim(SHARD)).isEqualTo(5);
    assertThat(redis.sync().xlen(STREAM)).isZero();
  }

  private void createGroup(String group) {
    redis
        .sync()
        .xgroupCreate(
            XReadArgs.StreamOffset.from(STREAM, "0"), group, XGroupCreateArgs.Builder.mkstream());
  }

  private List<StreamMessage<String, String>> readAndAck(String group, int read, int ack) {
    List<StreamMessage<String, String>> messages =
        redis
            .sync()
            .xreadgroup(
                Consumer.from(group, "c1"),
                XReadArgs.Builder.count(read),
                XReadArgs.StreamOffset.lastConsumed(STREAM));
    assertThat(messages).hasSize(read);
    String[] ids =
        messages.subList(0, ack).stream().map(StreamMessage::getId).toArray(String[]::new);
    if (ids.length > 0) {
      redis.sync().xack(STREAM, group, ids);
    }
    return messages;
  }
}
