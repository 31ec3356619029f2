package dev.kairos.core.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kairos.core.error.KairosException;
import dev.kairos.devinfra.EmbeddedRedis;
import dev.kairos.devinfra.RealInfra;
import dev.kairos.devinfra.RedisMode;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The cluster-wide dedup window D, agreed in Redis by every node and executor. */
@RealInfra(redis = RedisMode.STANDALONE)
class ClusterMetadataIT {

  private final KairosRedis redis;
  private final String before;

  ClusterMetadataIT(EmbeddedRedis embedded) {
    redis = KairosRedis.connect(List.of(embedded.uri()), false, Duration.ofSeconds(5));
    before = redis.sync().hget(RedisKeys.META, ClusterMetadata.DEDUP_WINDOW_MS);
    redis.sync().hdel(RedisKeys.META, ClusterMetadata.DEDUP_WINDOW_MS);
  }

  @AfterEach
  void restore() {
    if (before == null) {
      redis.sync().hdel(RedisKeys.META, ClusterMetadata.DEDUP_WINDOW_MS);
    } else {
      redis.sync().hset(RedisKeys.META, ClusterMetadata.DEDUP_WINDOW_MS, before);
    }
    redis.close();
  }

  @Test
  void theFirstProcessFixesTheWindowAndOneThatDiffersIsRefusedByName() {
    ClusterMetadata.agreeOnDedupWindow(
        redis, Duration.ofMinutes(10), "kairos.cluster.dedup-window");
    ClusterMetadata.agreeOnDedupWindow(
        redis, Duration.ofMinutes(10), "kairos.executor.dedup-window");
    assertThat(redis.sync().hget(RedisKeys.META, ClusterMetadata.DEDUP_WINDOW_MS))
        .isEqualTo("600000");

    assertThatThrownBy(
            () ->
                ClusterMetadata.agreeOnDedupWindow(
                    redis, Duration.ofMinutes(5), "kairos.executor.dedup-window"))
        .isInstanceOf(KairosException.class)
        .hasMessageContaining("kairos.executor.dedup-window = PT5M")
        .hasMessageContaining("600000 ms");
    assertThat(redis.sync().hget(RedisKeys.META, ClusterMetadata.DEDUP_WINDOW_MS))
        .as("a refused process changes nothing")
        .isEqualTo("600000");
  }
}
