package dev.kairos.security.user;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kairos.core.redis.KairosRedis;
import dev.kairos.core.redis.RedisKeys;
import dev.kairos.core.time.SettableClock;
import dev.kairos.devinfra.EmbeddedRedisCluster;
import dev.kairos.devinfra.RealInfra;
import dev.kairos.devinfra.RedisMode;
import dev.kairos.security.Role;
import dev.kairos.security.token.RuntimeToken;
import dev.kairos.security.token.RuntimeTokenStore;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Local users and their sign-in sessions in a real Redis Cluster. */
@RealInfra(redis = RedisMode.CLUSTER)
class LocalUserStoreIT {

  private static final String PASSWORD = "correct horse battery";

  private final EmbeddedRedisCluster cluster;
  private final SettableClock clock = new SettableClock(1_800_000_000_000L);
  private final String run = UUID.randomUUID().toString().substring(0, 8);
  private KairosRedis redis;
  private LocalUserStore users;
  private RuntimeTokenStore tokens;
  private UserSessions sessions;

  LocalUserStoreIT(EmbeddedRedisCluster cluster) {
    this.cluster = cluster;
  }

  @BeforeEach
  void connect() {
    redis = KairosRedis.connect(cluster.uris(), true, Duration.ofSeconds(5));
    users = new LocalUserStore(redis, clock);
    tokens = new RuntimeTokenStore(redis, clock);
    sessions = new UserSessions(users, tokens, clock);
  }

  @AfterEach
  void close() {
    redis.close();
  }

  @Test
  void aUserSignsInWithTheRightPasswordOnlyAndOnlyTheHashIsStored() {
    String name = "ann-" + run;
    assertThat(users.create(new UserRequest(name, PASSWORD, Role.VIEWER, List.of()), "admin"))
        .isPresent();

    assertThat(users.authenticate(name, PASSWORD)).map(LocalUser::role).contains(Role.VIEWER);
    assertThat(users.authenticate(name, PASSWORD + "!")).isEmpty();
    assertThat(users.authenticate("nobody-" + run, PASSWORD)).isEmpty();
    String stored = redis.sync().hget(RedisKeys.localUsers(), name);
    assertThat(stored).doesNotContain(PASSWORD).contains("{pbkdf2@SpringSecurity_v5_8}");
    assertThat(users.get(name).orElseThrow().toString()).doesNotContain("pbkdf2");
  }

  @Test
  void aNameIsTakenOnceAndBadRequestsStoreNothing() {
    String name = "bob-" + run;
    UserRequest request = new UserRequest(name, PASSWORD, Role.OPERATOR, List.of("pay"));
    assertThat(users.create(request, "admin")).isPresent();
    assertThat(users.create(request, "admin")).isEmpty();
    assertThatThrownBy(
            () -> users.create(new UserRequest("x-" + run, "short", Role.VIEWER, null), "admin"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("password")
        .hasMessageNotContaining("short");
    assertThat(users.get("x-" + run)).isEmpty();
  }

  @Test
  void aPasswordChangeAndADeletionTakeEffectAtOnce() {
    String name = "cat-" + run;
    users.create(new UserRequest(name, PASSWORD, Role.ADMIN, List.of()), "admin");

    assertThat(users.setPassword(name, "another long password", "admin")).isTrue();
    assertThat(users.authenticate(name, PASSWORD)).isEmpty();
    assertThat(users.authenticate(name, "another long password")).isPresent();

    assertThat(users.delete(name, "admin")).isTrue();
    assertThat(users.authenticate(name, "another long password")).isEmpty();
    assertThat(users.setPassword(name, "a third long password", "admin")).isFalse();
  }

  @Test
  void aSignInIsASessionTokenOfTheUsersRoleAndAppsThatSignOutRevokes() {
    String name = "dan-" + run;
    users.create(new UserRequest(name, PASSWORD, Role.OPERATOR, List.of("pay", "ledger")), "admin");

    assertThat(sessions.signIn(name, "wrong password!")).isEmpty();
    String session = sessions.signIn(name, PASSWORD).orElseThrow();

    RuntimeToken token = tokens.authenticate(session).orElseThrow();
    assertThat(token.name()).isEqualTo(name);
    assertThat(token.role()).isEqualTo(Role.OPERATOR);
    assertThat(token.apps()).containsExactlyInAnyOrder("pay", "ledger");
    assertThat(token.createdBy()).isEqualTo(UserSessions.CREATED_BY);
    assertThat(token.expiresMs() - clock.nowMs())
        .isEqualTo(UserSessions.SESSION_LIFETIME.toMillis());

    sessions.signOut(session, name);

    assertThat(tokens.authenticate(session)).isEmpty();
  }

  @Test
  void endingAllOfAUsersSessionsLeavesOtherUsersAndTokensAlone() {
    String name = "eve-" + run;
    String other = "fay-" + run;
    users.create(new UserRequest(name, PASSWORD, Role.VIEWER, List.of()), "admin");
    users.create(new UserRequest(other, PASSWORD, Role.VIEWER, List.of()), "admin");
    String first = sessions.signIn(name, PASSWORD).orElseThrow();
    String second = sessions.signIn(name, PASSWORD).orElseThrow();
    String theirs = sessions.signIn(other, PASSWORD).orElseThrow();

    assertThat(sessions.endAll(name, "admin")).isEqualTo(2);

    assertThat(tokens.authenticate(first)).isEmpty();
    assertThat(tokens.authenticate(second)).isEmpty();
    assertThat(tokens.authenticate(theirs)).isPresent();
  }
}
