package dev.kairos.protocol.adhoc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kairos.core.model.JobDefinition;
import dev.kairos.core.model.TriggerId;
import dev.kairos.core.model.TriggerKind;
import dev.kairos.core.redis.KairosRedis;
import dev.kairos.core.redis.RedisKeys;
import dev.kairos.core.store.JobDisabledException;
import dev.kairos.core.store.JobNotFoundException;
import dev.kairos.core.store.JobStore;
import dev.kairos.core.time.SettableClock;
import dev.kairos.core.validation.JobValidationException;
import dev.kairos.devinfra.EmbeddedRedisCluster;
import dev.kairos.devinfra.RealInfra;
import dev.kairos.devinfra.RedisMode;
import java.time.Duration;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

@RealInfra(redis = RedisMode.CLUSTER)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class AdhocTriggersIT {

  private static final long NOW = 1_750_000_000_000L;

  private final EmbeddedRedisCluster cluster;
  private final RedisKeys keys = new RedisKeys(16);
  private final SettableClock clock = new SettableClock(NOW);
  private KairosRedis redis;
  private JobStore jobs;
  private AdhocTriggers adhoc;

  AdhocTriggersIT(EmbeddedRedisCluster cluster) {
    this.cluster = cluster;
  }

  @BeforeAll
  void connect() {
    redis = KairosRedis.connect(cluster.uris(), true, Duration.ofSeconds(5));
    jobs = new JobStore(redis, keys, clock, 1_000);
    adhoc = new AdhocTriggers(redis, keys, clock);
  }

  @AfterAll
  void disconnect() {
    redis.close();
  }

  private String newJob() {
    String id = "adhoc-" + UUID.randomUUID().toString().substring(0, 8);
    jobs.create(
        JobDefinition.builder(id).app("billing").handler("report").params("{\"job\":1}").build());
    return id;
  }

  @Test
  void triggerNowWritesTheRequestAndADueEntryOnTheJobsShard() {
    String job = newJob();
    TriggerId id = adhoc.triggerNow(job, Optional.of("{\"run\":\"manual\"}"));

    assertThat(id.jobId()).isEqualTo(job);
    assertThat(id.value()).startsWith(job + ":" + NOW + ":m");
    int shard = keys.shardOf(job);
    assertThat(redis.sync().zscore(RedisKeys.adhoc(shard), id.value())).isEqualTo((double) NOW);
    assertThat(redis.sync().hgetall(RedisKeys.adhocRequest(shard, id.value())))
        .containsEntry("jobId", job)
        .containsEntry("kind", "MANUAL")
        .containsEntry("attempt", "1")
        .containsEntry("depth", "0")
        .containsEntry("params", "{\"run\":\"manual\"}")
        .doesNotContainKey("parentTriggerId");
    assertThat(adhoc.triggerNow(job, Optional.empty())).isNotEqualTo(id);
  }

  @Test
  void withoutAnOverrideTheRequestCarriesNoParams() {
    String job = newJob();
    TriggerId id = adhoc.triggerNow(job, Optional.empty());
    assertThat(redis.sync().hgetall(RedisKeys.adhocRequest(keys.shardOf(job), id.value())))
        .doesNotContainKey("params")
        .doesNotContainKey("targetSlot");
  }

  @Test
  void aChosenSlotIsWrittenWithTheRequest() {
    String job = newJob();
    TriggerId id = adhoc.triggerNow(job, Optional.empty(), java.util.OptionalInt.of(0));
    assertThat(redis.sync().hgetall(RedisKeys.adhocRequest(keys.shardOf(job), id.value())))
        .containsEntry("targetSlot", "0")
        .doesNotContainKey("params");
    org.assertj.core.api.Assertions.assertThatThrownBy(
            () -> adhoc.triggerNow(job, Optional.empty(), java.util.OptionalInt.of(-1)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("targetSlot");
  }

  @Test
  void resubmittingTheSameIdIsADuplicateThatWritesNothing() {
    String job = newJob();
    TriggerId first = TriggerId.scheduled(job, NOW).retry(1);
    AdhocRequest retry =
        new AdhocRequest(
            first,
            TriggerKind.RETRY,
            NOW + 2_000,
            2,
            Optional.empty(),
            Optional.of(TriggerId.scheduled(job, NOW)),
            0,
            OptionalLong.of(3));
    assertThat(adhoc.submit(retry).outcome()).isEqualTo(AdhocSubmission.Outcome.ACCEPTED);
    int shard = keys.shardOf(job);
    assertThat(redis.sync().hgetall(RedisKeys.adhocRequest(shard, first.value())))
        .containsEntry("parentTriggerId", job + ":" + NOW)
        .containsEntry("scheduleVersion", "3")
        .containsEntry("kind", "RETRY");

    AdhocRequest later =
        new AdhocRequest(
            first,
            TriggerKind.RETRY,
            NOW + 9_000,
            2,
            Optional.empty(),
            Optional.empty(),
            0,
            OptionalLong.empty());
    assertThat(adhoc.submit(later).outcome()).isEqualTo(AdhocSubmission.Outcome.DUPLICATE);
    assertThat(redis.sync().zscore(RedisKeys.adhoc(shard), first.value()))
        .isEqualTo((double) NOW + 2_000);

    // Once claimed (the request gone, the trigger record written) it is still a duplicate.
    redis.sync().zrem(RedisKeys.adhoc(shard), first.value());
    redis.sync().del(RedisKeys.adhocRequest(shard, first.value()));
    redis.sync().hset(RedisKeys.trigger(shard, first.value()), "state", "CLAIMED");
    assertThat(adhoc.submit(retry).outcome()).isEqualTo(AdhocSubmission.Outcome.DUPLICATE);
    assertThat(redis.sync().zscore(RedisKeys.adhoc(shard), first.value())).isNull();
  }

  @Test
  void aMissingOrDisabledJobIsRefusedAndNothingIsWritten() {
    String missing = "nobody-" + UUID.randomUUID().toString().substring(0, 8);
    long waiting = adhoc.waiting(keys.shardOf(missing));
    assertThatThrownBy(() -> adhoc.triggerNow(missing, Optional.empty()))
        .isInstanceOf(JobNotFoundException.class);
    assertThat(adhoc.waiting(keys.shardOf(missing))).isEqualTo(waiting);

    String job = newJob();
    jobs.disable(job);
    long before = adhoc.waiting(keys.shardOf(job));
    assertThatThrownBy(() -> adhoc.triggerNow(job, Optional.empty()))
        .isInstanceOf(JobDisabledException.class);
    assertThat(adhoc.waiting(keys.shardOf(job))).isEqualTo(before);
  }

  @Test
  void anOversizeParamsOverrideIsAValidationErrorNamingParams() {
    String job = newJob();
    String huge = "x".repeat(JobDefinition.MAX_PARAMS_BYTES + 1);
    assertThatThrownBy(() -> adhoc.triggerNow(job, Optional.of(huge)))
        .isInstanceOf(JobValidationException.class)
        .satisfies(
            e ->
                assertThat(((JobValidationException) e).problems().get(0).field())
                    .isEqualTo("params"));
  }
}
