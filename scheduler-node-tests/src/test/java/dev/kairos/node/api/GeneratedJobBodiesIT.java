package dev.kairos.node.api;

import static dev.kairos.node.api.ApiTestNode.ADMIN;
import static org.assertj.core.api.Assertions.assertThat;

import dev.kairos.devinfra.EmbeddedInfrastructure;
import dev.kairos.devinfra.RealInfra;
import dev.kairos.devinfra.RedisMode;
import dev.kairos.devinfra.ZkMode;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.RandomDistribution;
import net.jqwik.api.Tuple;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The create API's invariant over generated job bodies (issue #15): every answer is 201 or a 4xx
 * problem+json whose errors name fields of the request, and a rejected request changes nothing in
 * Redis (a DUMP of every key before and after). Bodies mix valid and invalid values of every field,
 * wrong JSON types, missing and unknown fields. The generators are jqwik's.
 */
@RealInfra(redis = RedisMode.STANDALONE, zookeeper = ZkMode.STANDALONE, rocketMq = true)
class GeneratedJobBodiesIT {

  private static final int BODIES = 400;
  private static final String RUN = UUID.randomUUID().toString().substring(0, 8);

  /** The fields a job body has; an error may also name a nested one (retryBackoff.kind). */
  private static final Set<String> FIELDS =
      Set.of(
          "id",
          "app",
          "handler",
          "scheduleType",
          "schedule",
          "zone",
          "cronDialect",
          "params",
          "routing",
          "block",
          "timeoutMs",
          "retryCount",
          "retryBackoff",
          "misfire",
          "misfireThresholdMs",
          "enabled",
          "childJobIds",
          "description",
          "owner",
          "alarmEmails",
          "alarmWebhooks",
          "colour");

  private static ApiTestNode node;
  private static RedisClient redisClient;
  private static StatefulRedisConnection<String, String> redis;

  @BeforeAll
  static void start(EmbeddedInfrastructure infra) {
    Map<String, String> overrides = new LinkedHashMap<>();
    overrides.put("kairos.node.name", "api-generated-" + RUN);
    // Nothing but the API writes Redis, so a rejected call's snapshot compares cleanly.
    overrides.put("kairos.fire.enabled", "false");
    overrides.put("kairos.cluster.leadership.enabled", "false");
    overrides.put("kairos.sync.enabled", "false");
    overrides.put("kairos.lifecycle.enabled", "false");
    node = ApiTestNode.start(infra, overrides);
    redisClient = RedisClient.create(infra.redis().uri());
    redis = redisClient.connect();
  }

  @AfterAll
  static void stop() {
    if (redis != null) {
      redis.close();
      redisClient.shutdown();
    }
    if (node != null) {
      node.close();
    }
  }

  @Test
  void everyGeneratedBodyIsCreatedOrRejectedNamingItsFieldsAndARejectionChangesNothing() {
    // sampleStream: jqwik's generators outside a jqwik property (this test needs the Jupiter
    // extension that starts the infrastructure); a failure prints the body that broke it.
    List<Map<String, Object>> generated = bodies().sampleStream().limit(BODIES).toList();
    int created = 0;
    int rejected = 0;
    for (int i = 0; i < generated.size(); i++) {
      String json = ApiTestNode.json(generated.get(i));
      String what = "body " + i + ": " + abbreviate(json);
      RedisSnapshot before = RedisSnapshot.take(redis.sync());

      ApiTestNode.Response response = node.post("/api/v1/jobs", json, ADMIN);

      if (response.status() == 201) {
        created++;
        String id = response.json().path("id").asText();
        assertThat(node.get("/api/v1/jobs/" + id, ADMIN).status()).as(what).isEqualTo(200);
        assertThat(node.call("DELETE", "/api/v1/jobs/" + id, null, ADMIN, Map.of()).status())
            .as(what)
            .isEqualTo(204);
        continue;
      }
      rejected++;
      assertThat(response.status()).as(what + " -> " + response).isBetween(400, 499);
      assertThat(response.contentType()).as(what).startsWith("application/problem+json");
      assertThat(response.json().path("status").asInt()).as(what).isEqualTo(response.status());
      if (response.status() == 400) {
        List<String> named = response.json().path("errors").findValuesAsText("field");
        assertThat(named).as(what + " -> " + response).isNotEmpty();
        assertThat(named)
            .as(what + " -> " + response)
            .allSatisfy(f -> assertThat(FIELDS).contains(f.replaceAll("[.\\[].*", "")));
      }
      assertThat(response.body().length()).as(what).isLessThan(8_192);
      RedisSnapshot.take(redis.sync()).assertUnchangedSince(before, what);
    }
    // Both kinds must occur, or the generators test one side only.
    assertThat(created).as("created bodies").isGreaterThan(BODIES / 10);
    assertThat(rejected).as("rejected bodies").isGreaterThan(BODIES / 10);
  }

  private static String abbreviate(String json) {
    return json.length() <= 600 ? json : json.substring(0, 600) + "...";
  }

  /** Half the bodies hold only valid values (some fields absent), half mix in junk. */
  private static Arbitrary<Map<String, Object>> bodies() {
    return Arbitraries.oneOf(bodies(false), bodies(true));
  }

  /**
   * A body: with {@code junk}, any field may be absent, valid or invalid (a wrong value or JSON
   * type), and now and then an unknown field; without, every present value is valid.
   */
  private static Arbitrary<Map<String, Object>> bodies(boolean junk) {
    Map<String, Arbitrary<Object>> fields = new LinkedHashMap<>();
    fields.put("id", junk ? mostly(ids(), junkStrings()) : ids().map(v -> (Object) v));
    fields.put("app", junk ? mostly(names(), junkStrings()) : names().map(v -> (Object) v));
    fields.put("handler", junk ? mostly(names(), junkStrings()) : names().map(v -> (Object) v));
    fields.put("enabled", sometimes(pick(junk, List.of(true, false), List.of("yes", 1, ""))));
    fields.put(
        "zone",
        sometimes(
            pick(
                junk, List.of("UTC", "Asia/Shanghai", "Europe/Berlin"), List.of("Mars/Base", ""))));
    fields.put("cronDialect", sometimes(pick(junk, List.of("KAIROS"), List.of("SPRING", "", 3))));
    fields.put(
        "params",
        sometimes(
            junk
                ? Arbitraries.just(42)
                : Arbitraries.strings().ofMaxLength(40).map(v -> (Object) v)));
    fields.put(
        "routing",
        sometimes(
            pick(
                junk,
                List.of("FIRST", "ROUND", "CONSISTENT_HASH", "SHARDING_BROADCAST"),
                List.of("NEAREST", ""))));
    fields.put(
        "block",
        sometimes(
            pick(
                junk,
                List.of("SERIAL_EXECUTION", "DISCARD_LATER", "COVER_EARLY"),
                List.of("QUEUE"))));
    fields.put("timeoutMs", sometimes(junk ? junkNumbers() : durations()));
    fields.put(
        "retryCount", sometimes(pick(junk, List.of(0, 1, 3, 100), List.of(101, -1, "3", 1.5))));
    fields.put(
        "misfire",
        sometimes(pick(junk, List.of("DO_NOTHING", "FIRE_ONCE_NOW"), List.of("FIRE_ALL"))));
    fields.put(
        "misfireThresholdMs",
        sometimes(
            junk
                ? junkNumbers()
                : Arbitraries.longs().between(5_000, 604_800_000L).map(v -> (Object) v)));
    fields.put(
        "childJobIds",
        sometimes(
            junk
                ? Arbitraries.oneOf(
                    Arbitraries.just("not-a-list"), ids().list().ofSize(17).map(l -> (Object) l))
                : ids().list().ofMaxSize(3).map(l -> (Object) l)));
    fields.put(
        "description",
        sometimes(pick(junk, List.of("", "nightly\nreport"), List.of("d".repeat(1001), 7))));
    fields.put("owner", sometimes(pick(junk, List.of("", "ops"), List.of("o\nx", List.of()))));
    fields.put(
        "alarmEmails",
        sometimes(
            pick(
                junk,
                List.of(List.of(), List.of("ops@example.com")),
                List.of(
                    List.of("ops"),
                    "ops@example.com",
                    List.of("a@example.com", "A@example.com")))));
    fields.put(
        "alarmWebhooks",
        sometimes(
            pick(
                junk,
                List.of(List.of(), List.of("https://hooks.example.com/a?x=1,2")),
                List.of(List.of("ftp://x/y"), List.of(""), "https://hooks.example.com/a"))));
    fields.put(
        "retryBackoff",
        sometimes(
            pick(
                junk,
                List.of(
                    Map.of(
                        "kind",
                        "FIXED",
                        "initialDelayMs",
                        1000,
                        "maxDelayMs",
                        1000,
                        "jitter",
                        0.0)),
                List.of(
                    Map.of("kind", "EXPONENTIAL", "initialDelayMs", 1000, "maxDelayMs", 500),
                    Map.of("kind", "LINEAR"),
                    "fast"))));
    List<Arbitrary<Tuple.Tuple2<String, Object>>> entries = new ArrayList<>();
    fields.forEach((name, values) -> entries.add(values.map(v -> Tuple.of(name, v))));
    Arbitrary<List<Tuple.Tuple2<String, Object>>> plain = Combinators.combine(entries).as(l -> l);
    Arbitrary<Object> unknown = junk ? unknownField() : Arbitraries.just(ABSENT);
    return Combinators.combine(plain, schedules(junk), unknown)
        .as(
            (list, schedule, extra) -> {
              Map<String, Object> body = new LinkedHashMap<>();
              for (Tuple.Tuple2<String, Object> e : list) {
                if (e.get2() != ABSENT) {
                  body.put(e.get1(), e.get2());
                }
              }
              body.putAll(schedule);
              if (extra != ABSENT) {
                body.put("colour", extra);
              }
              return body;
            });
  }

  /** One of {@code valid}, or with {@code junk} one of either list. */
  private static Arbitrary<Object> pick(boolean junk, List<?> valid, List<?> invalid) {
    List<Object> values = new ArrayList<>(valid);
    if (junk) {
      values.addAll(invalid);
    }
    return Arbitraries.of(values);
  }

  private static Arbitrary<Object> durations() {
    return Arbitraries.longs().between(0, 604_800_000L).map(v -> (Object) v);
  }

  private static final Object ABSENT = new Object();

  /** A type and a spec that fit, or with {@code junk} also ones that do not. */
  private static Arbitrary<Map<String, Object>> schedules(boolean junk) {
    Arbitrary<Map<String, Object>> valid =
        Arbitraries.of(
            Map.of("scheduleType", "CRON", "schedule", "0 0 3 * * *"),
            Map.of("scheduleType", "CRON", "schedule", "*/10 * * * * *"),
            Map.of("scheduleType", "CRON", "cronDialect", "QUARTZ", "schedule", "0 30 2 ? * 1"),
            Map.of("scheduleType", "FIXED_RATE", "schedule", "60000"),
            Map.of("scheduleType", "FIXED_DELAY", "schedule", " 5000 "),
            Map.of("scheduleType", "ONE_SHOT", "schedule", "1900000000000"),
            Map.of("scheduleType", "API", "schedule", ""));
    Arbitrary<Map<String, Object>> invalid =
        Arbitraries.of(
            Map.of("scheduleType", "CRON", "schedule", "0 0 0 30 2 *"),
            Map.of("scheduleType", "CRON", "schedule", "61 * * * * *"),
            Map.of("scheduleType", "CRON", "schedule", "every day"),
            Map.of("scheduleType", "FIXED_RATE", "schedule", "1"),
            Map.of("scheduleType", "FIXED_RATE", "schedule", "-5"),
            Map.of("scheduleType", "FIXED_DELAY", "schedule", "9223372036854775807"),
            Map.of("scheduleType", "ONE_SHOT", "schedule", "1000"),
            Map.of("scheduleType", "API", "schedule", "5"),
            Map.of("scheduleType", "HOURLY", "schedule", "1"),
            Map.of("scheduleType", "CRON", "schedule", 5));
    return junk ? Arbitraries.frequencyOf(Tuple.of(1, valid), Tuple.of(2, invalid)) : valid;
  }

  private static Arbitrary<Object> unknownField() {
    return Arbitraries.frequencyOf(
        Tuple.of(9, Arbitraries.just(ABSENT)), Tuple.of(1, Arbitraries.just("blue")));
  }

  /** Most often a valid value, sometimes junk. */
  private static Arbitrary<Object> mostly(Arbitrary<String> valid, Arbitrary<String> junk) {
    return Arbitraries.frequencyOf(
        Tuple.of(8, valid.map(v -> (Object) v)),
        Tuple.of(1, junk.map(v -> (Object) v)),
        Tuple.of(1, Arbitraries.just(ABSENT)));
  }

  /** Absent half of the time, else one of {@code values}. */
  private static Arbitrary<Object> sometimes(Arbitrary<?> values) {
    return Arbitraries.frequencyOf(
        Tuple.of(1, Arbitraries.just(ABSENT)), Tuple.of(1, values.map(v -> (Object) v)));
  }

  private static Arbitrary<String> ids() {
    return Arbitraries.strings()
        .withChars("abcxyz019_.-")
        .ofMinLength(1)
        .ofMaxLength(20)
        .filter(s -> !s.equals(".") && !s.equals(".."))
        .map(s -> "g-" + RUN + "-" + s);
  }

  private static Arbitrary<String> names() {
    return Arbitraries.strings().withChars("abcdefXYZ019_.-").ofMinLength(1).ofMaxLength(30);
  }

  private static Arbitrary<String> junkStrings() {
    return Arbitraries.oneOf(
        Arbitraries.of("", " ", ".", "..", "a:b", "a/b", "ünï", "x".repeat(200), "%2F", "\u0000"),
        Arbitraries.strings().ofMinLength(1).ofMaxLength(12));
  }

  private static Arbitrary<Object> junkNumbers() {
    return Arbitraries.oneOf(
        Arbitraries.longs()
            .between(-10, 800_000_000L)
            .withDistribution(RandomDistribution.biased())
            .map(v -> (Object) v),
        Arbitraries.of(0L, 604_800_000L, 604_800_001L, Long.MAX_VALUE, Long.MIN_VALUE)
            .map(v -> (Object) v),
        Arbitraries.of("5000", "ten", 1.5, true).map(v -> (Object) v));
  }
}
