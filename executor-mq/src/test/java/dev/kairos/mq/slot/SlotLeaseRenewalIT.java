package dev.kairos.mq.slot;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kairos.core.redis.KairosRedis;
import dev.kairos.devinfra.EmbeddedRedis;
import dev.kairos.devinfra.Poll;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A lease outlives a Redis restart: a failed renewal is retried after a sixth of the renew
 * interval, not a whole interval, so the lease is confirmed soon after Redis is back. Its own Redis
 * server, really stopped and started again (the AOF keeps the lease).
 */
class SlotLeaseRenewalIT {

  /** Long enough that "renewed before the next interval" cannot be a coincidence of timing. */
  private static final Duration RENEW = Duration.ofSeconds(12);

  private static final Duration TTL = Duration.ofSeconds(60);

  @TempDir Path dir;
  private EmbeddedRedis server;
  private KairosRedis redis;
  private SlotLease lease;

  @BeforeEach
  void start() {
    server = EmbeddedRedis.start(dir);
    redis = KairosRedis.connect(List.of(server.uri()), false, Duration.ofSeconds(1));
  }

  @AfterEach
  void stop() {
    if (lease != null) {
      lease.close();
    }
    redis.close();
    server.close();
  }

  @Test
  void aFailedRenewalIsRetriedSoonAfterRedisIsBack() {
    lease =
        new SlotLease(
            redis,
            SlotLeaseConfig.of("renewal-app", "instance-1", "host", List.of("h"))
                .withSlotCount(2)
                .withTiming(TTL, RENEW, Duration.ofSeconds(1)));
    lease.start();
    assertThat(lease.failedRenewalRetryMs()).isEqualTo(RENEW.toMillis() / 6);
    server.stop();
    Poll.until(
        RENEW.multipliedBy(2), "the first renewal to fail", () -> lease.renewalFailures() > 0);
    server.restart();
    // Without the fast retry the next attempt comes a whole interval (12 s) after the failure.
    Poll.until(
        RENEW.dividedBy(2), "a renewal soon after Redis is back", () -> lease.renewals() > 0);
    assertThat(lease.isValid()).isTrue();
    assertThat(lease.isLost()).isFalse();
  }
}
