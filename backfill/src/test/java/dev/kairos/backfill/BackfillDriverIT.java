package dev.kairos.backfill;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kairos.backfill.InflightFires.Where;
import dev.kairos.core.model.JobDefinition;
import dev.kairos.core.model.TriggerId;
import dev.kairos.core.redis.KairosRedis;
import dev.kairos.core.redis.RedisKeys;
import dev.kairos.core.store.JobStore;
import dev.kairos.core.time.SettableClock;
import dev.kairos.devinfra.EmbeddedRedisCluster;
import dev.kairos.devinfra.RealInfra;
import dev.kairos.devinfra.RedisMode;
import dev.kairos.protocol.adhoc.AdhocTriggers;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The leader's driver against real Redis (Cluster), stepped by hand: the fires' ends are written to
 * their records as the executor's completion leaves them, and the scan's claim is left out (a
 * claimed fire is one whose ad-hoc entry is gone and whose record exists).
 */
@RealInfra(redis = RedisMode.CLUSTER)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class BackfillDriverIT {

  private final EmbeddedRedisCluster cluster;
  private final RedisKeys keys = new RedisKeys(16);
  private final SettableClock clock = new SettableClock(System.currentTimeMillis());
  private final Instant to = Instant.now().truncatedTo(ChronoUnit.HOURS);
  private KairosRedis redis;
  private JobStore jobs;
  private BackfillStore store;
  private Backfills backfills;
  private BackfillDriver driver;

  BackfillDriverIT(EmbeddedRedisCluster cluster) {
    this.cluster = cluster;
  }

  @BeforeAll
  void connect() {
    redis = KairosRedis.connect(cluster.uris(), true, Duration.ofSeconds(5));
    jobs = new JobStore(redis, keys, clock);
    store = new BackfillStore(redis, Duration.ofDays(1));
    backfills = new Backfills(store, clock, 100, 10);
    driver =
        new BackfillDriver(
            1,
            store,
            new AdhocTriggers(redis, keys, clock),
            redis,
            keys,
            jobs::get,
            clock,
            Duration.ofMillis(100),
            new BackfillMetrics(new SimpleMeterRegistry()));
  }

  @AfterAll
  void disconnect() {
    driver.close();
    redis.close();
  }

  private String hourlyJob(int retryCount) {
    String id = "bf-" + UUID.randomUUID().toString().substring(0, 8);
    jobs.create(
        JobDefinition.builder(id)
            .app("billing")
            .handler("report")
            .cron("0 0 * * * ?")
            .zone("UTC")
            .retryCount(retryCount)
            .build());
    return id;
  }

  private Backfill start(String job, int hours, int maxConcurrent) {
    Backfills.Started started =
        backfills.start(
            jobs.get(job).orElseThrow(),
            to.minus(hours, ChronoUnit.HOURS).toEpochMilli(),
            to.toEpochMilli(),
            maxConcurrent);
    assertThat(started.created()).isTrue();
    return started.backfill();
  }

  private Backfill stored(Backfill b) {
    return store.get(b.id()).orElseThrow();
  }

  private TriggerId fire(String job, int hoursBeforeTo) {
    return TriggerId.backfill(job, to.minus(hoursBeforeTo, ChronoUnit.HOURS).toEpochMilli());
  }

  private List<String> waiting(String job) {
    return redis.sync().zrange(RedisKeys.adhoc(keys.shardOf(job)), 0, -1).stream()
        .filter(t -> t.startsWith(job + ":"))
        .toList();
  }

  /** The fire claimed and ended as the protocol leaves it. */
  private void end(TriggerId id, String state, int attempt) {
    int shard = keys.shardOf(id.jobId());
    redis.sync().zrem(RedisKeys.adhoc(shard), id.value());
    redis
        .sync()
        .hset(
            RedisKeys.trigger(shard, id.value()),
            Map.of(
                "id", id.value(),
                "jobId", id.jobId(),
                "state", state,
                "attempt", Integer.toString(attempt),
                "endedMs", Long.toString(System.currentTimeMillis())));
  }

  /** The fire claimed as the scan's claim leaves it: off the ad-hoc set, a CLAIMED record. */
  private void claim(TriggerId id) {
    int shard = keys.shardOf(id.jobId());
    redis.sync().zrem(RedisKeys.adhoc(shard), id.value());
    redis
        .sync()
        .hset(
            RedisKeys.trigger(shard, id.value()),
            Map.of("id", id.value(), "jobId", id.jobId(), "state", "CLAIMED", "attempt", "1"));
  }

  @Test
  void oneReadTellsWaitingClaimedEndedAndGoneFiresApart() {
    String job = hourlyJob(0);
    Backfill b = start(job, 4, 4);
    driver.step(stored(b)); // submits fires 4..1 hours before `to`
    claim(fire(job, 3));
    end(fire(job, 2), "FAIL", 2);
    int shard = keys.shardOf(job);
    redis.sync().zrem(RedisKeys.adhoc(shard), fire(job, 1).value()); // expired unclaimed
    redis.sync().hset(RedisKeys.trigger(shard, fire(job, 0).value()), "jobId", job);

    List<InflightFires.Fire> read =
        new InflightFires(redis, keys)
            .read(List.of(fire(job, 4), fire(job, 3), fire(job, 2), fire(job, 1), fire(job, 0)));

    assertThat(read)
        .containsExactly(
            new InflightFires.Fire(Optional.empty(), Optional.empty(), Where.WAITING),
            new InflightFires.Fire(Optional.of("CLAIMED"), Optional.of("1"), Where.RECORDED),
            new InflightFires.Fire(Optional.of("FAIL"), Optional.of("2"), Where.RECORDED),
            new InflightFires.Fire(Optional.empty(), Optional.empty(), Where.GONE),
            new InflightFires.Fire(Optional.empty(), Optional.empty(), Where.RECORDED));
  }

  @Test
  void aClaimedFireStaysInFlightAndAFireInNeitherPlaceIsCountedFailed() {
    String job = hourlyJob(0);
    Backfill b = start(job, 1, 2);
    driver.step(stored(b));
    claim(fire(job, 1)); // the claim's one script: ad-hoc entry gone, record written
    redis.sync().zrem(RedisKeys.adhoc(keys.shardOf(job)), fire(job, 0).value());

    driver.step(stored(b));

    Backfill stepped = stored(b);
    assertThat(stepped.inflight()).containsExactly(fire(job, 1));
    assertThat(stepped.failed()).isEqualTo(1);
    assertThat(stepped.succeeded()).isZero();
  }

  @Test
  void aLeaderKilledBeforeSavingItsStepMakesTheNextResubmitTheSameFiresAsDuplicates() {
    String job = hourlyJob(0);
    Backfill created = start(job, 5, 2);
    assertThat(created.total()).isEqualTo(6);

    driver.step(stored(created));
    Backfill afterFirst = stored(created);
    // The step's save is lost: the hash is as before it (a leader killed between the two).
    redis.sync().hset(BackfillStore.key(created.id()), created.toHash());
    driver.step(stored(created));

    Backfill afterReplay = stored(created);
    assertThat(afterFirst.inflight()).containsExactly(fire(job, 5), fire(job, 4));
    assertThat(afterReplay.inflight()).isEqualTo(afterFirst.inflight());
    assertThat(afterReplay.submitted()).isEqualTo(2);
    assertThat(afterReplay.cursorMs()).isEqualTo(fire(job, 4).fireMs());
    assertThat(waiting(job)).containsExactlyInAnyOrder(fire(job, 5).value(), fire(job, 4).value());
  }

  @Test
  void endedFiresAreCountedAndTheNextSubmittedUpToTheCapUntilTheBackfillEnds() {
    String job = hourlyJob(0);
    Backfill b = start(job, 2, 2);
    driver.step(stored(b));
    assertThat(stored(b).running()).isEqualTo(2);
    driver.step(stored(b));
    assertThat(stored(b).submitted()).as("none ended: nothing more").isEqualTo(2);

    end(fire(job, 2), "SUCCESS", 1);
    end(fire(job, 1), "FAIL", 1);
    driver.step(stored(b));

    Backfill middle = stored(b);
    assertThat(middle.succeeded()).isEqualTo(1);
    assertThat(middle.failed()).isEqualTo(1);
    assertThat(middle.inflight()).containsExactly(fire(job, 0));
    assertThat(middle.state()).isEqualTo(BackfillState.RUNNING);

    end(fire(job, 0), "SUCCESS", 1);
    driver.step(stored(b));

    Backfill done = stored(b);
    assertThat(done.state()).isEqualTo(BackfillState.FAILED);
    assertThat(done.succeeded()).isEqualTo(2);
    assertThat(done.failed()).isEqualTo(1);
    assertThat(done.finishedMs()).isPositive();
    assertThat(store.activeIds()).doesNotContain(b.id());
    assertThat(redis.sync().pttl(BackfillStore.key(b.id()))).isPositive();
  }

  @Test
  void aFailureTheJobRetriesIsFollowedToItsRetry() {
    String job = hourlyJob(1);
    Backfill b = start(job, 0, 1);
    driver.step(stored(b));

    end(fire(job, 0), "FAIL", 1);
    driver.step(stored(b));
    assertThat(stored(b).inflight()).containsExactly(fire(job, 0).retry(1));
    assertThat(stored(b).failed()).isZero();

    end(fire(job, 0).retry(1), "SUCCESS", 2);
    driver.step(stored(b));

    assertThat(stored(b).state()).isEqualTo(BackfillState.SUCCEEDED);
    assertThat(stored(b).succeeded()).isEqualTo(1);
  }

  @Test
  void aCancelledBackfillSubmitsNothingMore() {
    String job = hourlyJob(0);
    Backfill b = start(job, 3, 1);
    driver.step(stored(b));
    Backfill running = stored(b);

    assertThat(backfills.cancel(b.id(), "test")).isEqualTo(BackfillStore.Outcome.OK);
    end(fire(job, 3), "SUCCESS", 1);
    driver.tick();
    // A step saved over the cancel is refused too.
    assertThat(store.save(running, BackfillState.RUNNING, clock.nowMs()))
        .isEqualTo(BackfillStore.Outcome.FINAL);

    assertThat(stored(b).state()).isEqualTo(BackfillState.CANCELLED);
    assertThat(stored(b).submitted()).isEqualTo(1);
    assertThat(waiting(job)).isEmpty();
    assertThat(backfills.cancel(b.id(), "again")).isEqualTo(BackfillStore.Outcome.FINAL);
  }

  @Test
  void theSameRangeAnswersTheSameBackfill() {
    String job = hourlyJob(0);
    Backfill b = start(job, 3, 1);

    Backfills.Started again =
        backfills.start(
            jobs.get(job).orElseThrow(),
            to.minus(3, ChronoUnit.HOURS).toEpochMilli(),
            to.toEpochMilli(),
            5);

    assertThat(again.created()).isFalse();
    assertThat(again.backfill().id()).isEqualTo(b.id());
    assertThat(again.backfill().maxConcurrent()).isEqualTo(1);
    assertThat(store.forJob(job)).extracting(Backfill::id).containsExactly(b.id());
  }
}
