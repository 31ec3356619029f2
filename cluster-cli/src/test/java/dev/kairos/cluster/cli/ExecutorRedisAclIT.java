package dev.kairos.cluster.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kairos.core.log.LogLine;
import dev.kairos.core.model.TriggerState;
import dev.kairos.core.redis.ClusterMetadata;
import dev.kairos.core.redis.KairosRedis;
import dev.kairos.core.redis.RedisKeys;
import dev.kairos.devinfra.EmbeddedInfrastructure;
import dev.kairos.devinfra.RedisMode;
import dev.kairos.mq.slot.SlotLease;
import dev.kairos.mq.slot.SlotLeaseConfig;
import dev.kairos.mq.slot.SlotRegistry;
import dev.kairos.protocol.log.TriggerLogScript;
import dev.kairos.protocol.slot.SlotInfo;
import dev.kairos.protocol.start.CompletionOutcome;
import dev.kairos.protocol.start.StartOutcome;
import dev.kairos.protocol.start.StartRequest;
import dev.kairos.protocol.start.TriggerRecords;
import io.lettuce.core.Range;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.codec.StringCodec;
import io.lettuce.core.output.StatusOutput;
import io.lettuce.core.protocol.CommandArgs;
import io.lettuce.core.protocol.CommandType;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The executor's least-privilege Redis user (deploy/redis/executor-users.acl) against a real Redis
 * with ACLs: as that user, the executor's own Redis code works — joining the cluster metadata and
 * the dedup window ({@link TriggerRecords#connect}), claiming, renewing and releasing a slot lease
 * ({@link SlotLease}), reading live slots, the start claim, the state read and the completion
 * scripts, the cancel poll, shipping a run's live log — and everything outside its keys and
 * commands is refused with NOPERM.
 */
class ExecutorRedisAclIT {

  private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
  private static final String USER = "kairos-exec-demo";
  private static final String PASSWORD = "acl-it-password";

  private static EmbeddedInfrastructure infra;
  private static KairosRedis admin;
  private static KairosRedis executor;

  @BeforeAll
  static void start() throws Exception {
    infra =
        EmbeddedInfrastructure.builder()
            .workDir(Path.of("target", "acl-it"))
            .redis(RedisMode.STANDALONE)
            .start();
    admin = KairosRedis.connect(List.of(infra.redis().uri()), false, Duration.ofSeconds(2));
    ClusterMetadata.initialise(admin, RedisKeys.DEFAULT_SHARDS); // what the first node does
    setUser(aclLine());
    executor =
        KairosRedis.connect(
            List.of("redis://" + USER + ":" + PASSWORD + "@127.0.0.1:" + infra.redis().port()),
            false,
            Duration.ofSeconds(2));
  }

  @AfterAll
  static void stop() {
    if (executor != null) {
      executor.close();
    }
    if (admin != null) {
      admin.close();
    }
    if (infra != null) {
      infra.close();
    }
  }

  @Test
  void theExecutorsRedisWorkRunsAsItsAclUser() {
    TriggerRecords records = TriggerRecords.connect(executor, TriggerRecords.DEFAULT_DEDUP_WINDOW);
    try (SlotLease lease =
        new SlotLease(
            executor, SlotLeaseConfig.of("demo", "acl-it-1", "127.0.0.1", List.of("demoFast")))) {
      lease.start();
      assertThat(lease.slot()).isGreaterThanOrEqualTo(0);
      assertThat(new SlotRegistry(executor).liveSlots("demo"))
          .extracting(SlotInfo::instanceId)
          .contains("acl-it-1");

      long fireMs = System.currentTimeMillis();
      String triggerId = "acl-job:" + fireMs;
      StartOutcome started =
          records.claimStart(
              new StartRequest(
                  triggerId, "acl-job", fireMs, 1, 0, "acl-it-1", lease.slot(), fireMs));
      assertThat(started.kind()).isEqualTo(StartOutcome.Kind.STARTED);
      assertThat(records.stateAndExecutor(triggerId, "acl-job"))
          .containsExactly("RUNNING", "acl-it-1");
      CompletionOutcome ended =
          records.complete(triggerId, "acl-job", fireMs, "acl-it-1", TriggerState.SUCCESS, "ok");
      assertThat(ended.kind())
          .isIn(CompletionOutcome.Kind.COMPLETED, CompletionOutcome.Kind.RECREATED);

      // CancelWatcher's poll
      assertThat(
              executor
                  .sync()
                  .zrangebyscore(
                      RedisKeys.cancels("demo"), Range.create(0d, Double.POSITIVE_INFINITY)))
          .isEmpty();
    }
    // close() released the slot through release_slot.lua
    assertThat(new SlotRegistry(executor).liveSlots("demo")).isEmpty();
  }

  @Test
  void aRunsLiveLogShipsAsTheAclUser() throws Exception {
    RedisKeys keys = new RedisKeys(RedisKeys.DEFAULT_SHARDS);
    long fireMs = System.currentTimeMillis();
    String triggerId = "acl-log-job:" + fireMs;
    Object shipped =
        new TriggerLogScript(executor, keys)
            .appendAsync(
                Duration.ofMinutes(10).toMillis(),
                1_000,
                triggerId,
                "acl-log-job",
                fireMs,
                List.of(
                    new LogLine(1, fireMs, "INFO", "first line"),
                    new LogLine(2, fireMs + 1, "WARN", "second line")))
            .toCompletableFuture()
            .get(5, TimeUnit.SECONDS);

    assertThat(shipped).isEqualTo(2L);
    String logKey = RedisKeys.triggerLog(keys.shardOf("acl-log-job"), triggerId);
    assertThat(admin.sync().zrange(logKey, 0, -1))
        .extracting(member -> LogLine.decode(member).text())
        .containsExactly("first line", "second line");
    assertThat(admin.sync().pttl(logKey)).isPositive();
  }

  @Test
  void everythingOutsideTheExecutorsKeysAndCommandsIsRefused() {
    assertNoPerm(() -> executor.sync().zadd(RedisKeys.due(0), 1.0, "job"));
    // Job hashes are readable (the start claim checks the job is still live); on Redis 6.2, which
    // has no read-only key patterns, that pattern is writable too: Redis 7 deployments use %R~.
    assertNoPerm(() -> executor.sync().zadd(RedisKeys.wheel(0, "node-1"), 1.0, "job:1"));
    assertNoPerm(() -> executor.sync().zadd(RedisKeys.jobIds(0), 0.0, "job"));
    assertNoPerm(() -> executor.sync().get(RedisKeys.fence(0)));
    assertNoPerm(() -> executor.sync().hset(RedisKeys.slots("other-app"), "0", "{}"));
    assertNoPerm(() -> executor.sync().keys("*"));
    assertNoPerm(() -> executor.sync().flushall());
    assertNoPerm(() -> executor.sync().configGet("*"));
    assertNoPerm(() -> executor.sync().del(RedisKeys.META));
    // The runtime API tokens' hashes and records are the nodes' alone.
    assertNoPerm(() -> executor.sync().hgetall(RedisKeys.apiTokens()));
    assertNoPerm(() -> executor.sync().hset(RedisKeys.apiTokens(), "hash", "{}"));
    assertNoPerm(() -> executor.sync().hgetall(RedisKeys.localUsers()));
    // Nor the audit trail, which holds job definitions whole.
    assertNoPerm(() -> executor.sync().xadd(RedisKeys.auditLog(), Map.of("action", "forged")));
  }

  private static void assertNoPerm(Runnable command) {
    assertThatThrownBy(command::run)
        .isInstanceOf(RedisCommandExecutionException.class)
        .hasMessageContaining("NOPERM");
  }

  /** The user line of the ACL file, with the test password's hash. */
  private static List<String> aclLine() throws Exception {
    String line =
        Files.readAllLines(ROOT.resolve("deploy/redis/executor-users.acl"), StandardCharsets.UTF_8)
            .stream()
            .filter(l -> l.startsWith("user "))
            .findFirst()
            .orElseThrow();
    String hash =
        HexFormat.of()
            .formatHex(
                MessageDigest.getInstance("SHA-256")
                    .digest(PASSWORD.getBytes(StandardCharsets.UTF_8)));
    return Arrays.asList(line.replace("<sha256-of-password>", hash).split("\\s+"));
  }

  /** {@code ACL SETUSER <name> <rules...>} as the default user. */
  private static void setUser(List<String> userLine) {
    RedisClient client = RedisClient.create(infra.redis().uri());
    try (StatefulRedisConnection<String, String> c = client.connect()) {
      CommandArgs<String, String> args =
          new CommandArgs<>(StringCodec.UTF8).add("SETUSER").add(userLine.get(1));
      userLine.subList(2, userLine.size()).forEach(args::add);
      String reply = c.sync().dispatch(CommandType.ACL, new StatusOutput<>(StringCodec.UTF8), args);
      assertThat(reply).isEqualTo("OK");
    } finally {
      client.shutdown();
    }
  }
}
