package dev.kairos.drills.bench;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class RedisPersistenceTest {

  private static final String INFO =
      String.join(
          "\r\n",
          "# Memory",
          "used_memory:52428800",
          "# Persistence",
          "aof_current_size:104857600",
          "aof_rewrites:3",
          "# Stats",
          "total_forks:4",
          "# Keyspace",
          "db0:keys=150000,expires=149000,avg_ttl=598000",
          "");

  @Test
  void readsTheDatasetAndCountsForksAndRewritesSinceTheWindowBegan() {
    RedisPersistence before = new RedisPersistence(100, 1, 1, 1, 1);
    RedisPersistence after = RedisPersistence.parse(INFO);
    assertThat(after.keys()).isEqualTo(150_000);
    assertThat(after.line(before))
        .isEqualTo("150000 keys, 52 MB used, AOF 105 MB; in the window 3 forks, 2 AOF rewrites");
  }

  @Test
  void aServerWithoutTheRewriteCounterSaysSo() {
    RedisPersistence before = RedisPersistence.parse("total_forks:0\r\n");
    RedisPersistence after = RedisPersistence.parse("total_forks:2\r\n");
    assertThat(after.keys()).isZero();
    assertThat(after.line(before)).endsWith("2 forks, -1 AOF rewrites");
  }
}
