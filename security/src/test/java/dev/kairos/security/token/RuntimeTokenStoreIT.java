package dev.kairos.security.token;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kairos.core.redis.KairosRedis;
import dev.kairos.core.redis.RedisKeys;
import dev.kairos.core.time.SettableClock;
import dev.kairos.devinfra.EmbeddedRedisCluster;
import dev.kairos.devinfra.Poll;
import dev.kairos.devinfra.RealInfra;
import dev.kairos.devinfra.RedisMode;
import dev.kairos.security.Role;
import java.time.Duration;
import java.util.List;
import java.util.OptionalLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Runtime tokens in a real Redis Cluster, read by two nodes' connections. */
@RealInfra(redis = RedisMode.CLUSTER)
class RuntimeTokenStoreIT {

  private static final Duration TIMEOUT = Duration.ofSeconds(5);
  private static final long DAY = Duration.ofDays(1).toMillis();

  private final EmbeddedRedisCluster cluster;
  private final SettableClock clock = new SettableClock(1_800_000_000_000L);
  private KairosRedis redisA;
  private KairosRedis redisB;
  private RuntimeTokenStore nodeA;
  private RuntimeTokenStore nodeB;

  RuntimeTokenStoreIT(EmbeddedRedisCluster cluster) {
    this.cluster = cluster;
  }

  @BeforeEach
  void connect() {
    redisA = KairosRedis.connect(cluster.uris(), true, TIMEOUT);
    redisB = KairosRedis.connect(cluster.uris(), true, TIMEOUT);
    nodeA = new RuntimeTokenStore(redisA, clock);
    nodeB = new RuntimeTokenStore(redisB, clock);
  }

  @AfterEach
  void close() {
    redisA.close();
    redisB.close();
  }

  private IssuedToken issue(String name, Role role) {
    return nodeA.create(
        new TokenRequest(name, "team-a@example.com", role, List.of(), clock.nowMs() + DAY),
        "admin-ci");
  }

  @Test
  void aCreatedTokenAuthenticatesOnEveryNodeAndOnlyItsHashIsStored() {
    IssuedToken issued = issue("dash", Role.VIEWER);

    assertThat(nodeB.authenticate(issued.secret())).contains(issued.token());
    assertThat(nodeB.authenticate(issued.secret() + "x")).isEmpty();
    assertThat(nodeB.authenticate(TokenSecrets.sha256Hex(issued.secret()))).isEmpty();
    String stored =
        redisA.sync().hget(RedisKeys.apiTokens(), TokenSecrets.sha256Hex(issued.secret()));
    assertThat(stored).contains(issued.token().id()).doesNotContain(issued.secret());
    assertThat(issued.token().createdBy()).isEqualTo("admin-ci");
  }

  @Test
  void aRevokedTokenIsRefusedByEveryNodeFromTheNextRequestOn() {
    IssuedToken issued = issue("to-revoke", Role.ADMIN);
    assertThat(nodeB.authenticate(issued.secret())).isPresent();

    assertThat(nodeA.revoke(issued.token().id(), "admin-ci")).contains(issued.token());

    assertThat(nodeB.authenticate(issued.secret())).isEmpty();
    assertThat(nodeA.authenticate(issued.secret())).isEmpty();
    assertThat(nodeB.list()).noneMatch(l -> l.token().id().equals(issued.token().id()));
    assertThat(nodeA.revoke(issued.token().id(), "admin-ci")).isEmpty();
  }

  @Test
  void anExpiredTokenAuthenticatesNothingButStaysListedUntilRevoked() {
    IssuedToken issued = issue("short-lived", Role.METRICS);
    clock.advance(Duration.ofMillis(DAY - 1));
    assertThat(nodeB.authenticate(issued.secret())).isPresent();

    clock.advance(Duration.ofMillis(1));

    assertThat(nodeB.authenticate(issued.secret())).isEmpty();
    assertThat(nodeA.list())
        .filteredOn(l -> l.token().id().equals(issued.token().id()))
        .singleElement()
        .satisfies(l -> assertThat(l.token().expiredAt(clock.nowMs())).isTrue());
  }

  @Test
  void theLastUseIsRecordedAtMostOncePerResolution() {
    IssuedToken issued = issue("used", Role.VIEWER);
    String id = issued.token().id();
    assertThat(listed(id)).isEmpty();

    long first = clock.nowMs();
    nodeB.authenticate(issued.secret());
    Poll.until(TIMEOUT, "the first use recorded", () -> listed(id).isPresent());
    assertThat(listed(id)).hasValue(first);

    clock.advance(RuntimeTokenStore.LAST_USED_RESOLUTION.minusMillis(1));
    nodeB.authenticate(issued.secret());
    clock.advance(Duration.ofMillis(1));
    long later = clock.nowMs();
    nodeB.authenticate(issued.secret());
    Poll.until(TIMEOUT, "the later use recorded", () -> listed(id).equals(OptionalLong.of(later)));
  }

  private OptionalLong listed(String id) {
    return nodeA.list().stream()
        .filter(l -> l.token().id().equals(id))
        .findFirst()
        .orElseThrow()
        .lastUsedMs();
  }
}
