package dev.kairos.core.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kairos.core.model.JobDefinition;
import dev.kairos.core.redis.KairosRedis;
import dev.kairos.core.redis.RedisKeys;
import dev.kairos.core.time.SettableClock;
import dev.kairos.core.validation.JobValidationException;
import dev.kairos.devinfra.EmbeddedRedisCluster;
import dev.kairos.devinfra.RealInfra;
import dev.kairos.devinfra.RedisMode;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

@RealInfra(redis = RedisMode.CLUSTER)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ChildJobsIT {

  private final EmbeddedRedisCluster cluster;
  private final RedisKeys keys = new RedisKeys(16);
  private final SettableClock clock = new SettableClock(1_750_000_000_000L);
  private KairosRedis redis;
  private JobStore store;

  ChildJobsIT(EmbeddedRedisCluster cluster) {
    this.cluster = cluster;
  }

  @BeforeAll
  void connect() {
    redis = KairosRedis.connect(cluster.uris(), true, Duration.ofSeconds(5));
    store = new JobStore(redis, keys, clock, 1_000);
  }

  @AfterAll
  void disconnect() {
    redis.close();
  }

  private static String newId(String prefix) {
    return prefix + "-" + UUID.randomUUID().toString().substring(0, 8);
  }

  private static JobDefinition job(String id, String... children) {
    return JobDefinition.builder(id)
        .app("billing")
        .handler("report")
        .fixedRate(60_000)
        .childJobIds(List.of(children))
        .build();
  }

  @Test
  void childListIsStoredInTheHashAndTheEventAndReadBack() {
    String parent = newId("p");
    String unknown = newId("later"); // a child may be created after its parent
    JobDefinition stored = store.create(job(parent, unknown, "other"));

    assertThat(stored.childJobIds()).containsExactly(unknown, "other");
    assertThat(store.get(parent).orElseThrow().childJobIds()).containsExactly(unknown, "other");
    int shard = keys.shardOf(parent);
    assertThat(redis.sync().hget(RedisKeys.job(shard, parent), "childJobIds"))
        .isEqualTo(unknown + ",other");
    assertThat(ShardSnapshot.lastEvent(redis, shard))
        .containsEntry("childJobIds", unknown + ",other");

    JobDefinition updated = store.update(job(parent), stored.version());
    assertThat(updated.childJobIds()).isEmpty();
  }

  @Test
  void hashWrittenBeforeChildJobsExistedReadsAsNoChildren() {
    String id = newId("old");
    store.create(job(id));
    redis.sync().hdel(RedisKeys.job(keys.shardOf(id), id), "childJobIds");
    assertThat(store.get(id).orElseThrow().childJobIds()).isEmpty();
  }

  @Test
  void updateClosingACycleIsRejectedNamingItAndWritesNothing() {
    String a = newId("a");
    String b = newId("b");
    String c = newId("c");
    store.create(job(a, b));
    store.create(job(b, c));
    store.create(job(c));
    JobDefinition storedC = store.get(c).orElseThrow();
    ShardSnapshot beforeC = ShardSnapshot.of(redis, keys.shardOf(c), c);
    assertThatThrownBy(() -> store.update(job(c, a), storedC.version()))
        .isInstanceOf(JobValidationException.class)
        .satisfies(
            e -> {
              var problem = ((JobValidationException) e).problems().get(0);
              assertThat(problem.field()).isEqualTo("childJobIds");
              assertThat(problem.message()).contains(c + " -> " + a + " -> " + b + " -> " + c);
            });
    assertThat(ShardSnapshot.of(redis, keys.shardOf(c), c)).isEqualTo(beforeC);
    assertThat(store.get(c).orElseThrow().childJobIds()).isEmpty();
  }

  @Test
  void createClosingACycleThroughAChildNamedBeforeItExistedIsRejected() {
    String a = newId("a");
    String b = newId("b");
    store.create(job(b, a)); // b names a, which does not exist yet
    ShardSnapshot before = ShardSnapshot.of(redis, keys.shardOf(a), a);

    assertThatThrownBy(() -> store.create(job(a, b)))
        .isInstanceOf(JobValidationException.class)
        .hasMessageContaining("would form a cycle");
    assertThat(store.get(a)).isEmpty();
    assertThat(ShardSnapshot.of(redis, keys.shardOf(a), a)).isEqualTo(before);
  }

  @Test
  void selfReferenceDuplicatesAndTooManyChildrenAreInvalid() {
    String id = newId("s");
    assertThatThrownBy(() -> store.create(job(id, id)))
        .isInstanceOf(JobValidationException.class)
        .hasMessageContaining("its own child");
    assertThatThrownBy(() -> store.create(job(id, "x", "x")))
        .isInstanceOf(JobValidationException.class)
        .hasMessageContaining("listed twice");
    String[] many = new String[JobDefinition.MAX_CHILD_JOBS + 1];
    for (int i = 0; i < many.length; i++) {
      many[i] = "c" + i;
    }
    assertThatThrownBy(() -> store.create(job(id, many)))
        .isInstanceOf(JobValidationException.class)
        .hasMessageContaining("at most " + JobDefinition.MAX_CHILD_JOBS);
    assertThatThrownBy(() -> store.create(job(id, "bad:id")))
        .isInstanceOf(JobValidationException.class)
        .hasMessageContaining("not a valid job id");
    assertThat(store.get(id)).isEmpty();
  }
}
