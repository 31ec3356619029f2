package dev.kairos.drills.bench;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class RedisMemoryTest {

  @Test
  void usedMemoryIsReadFromInfoMemory() {
    String info =
        "# Memory\r\nused_memory:876543210\r\nused_memory_human:835.94M\r\n"
            + "used_memory_rss:900000000\r\n";
    assertThat(RedisMemory.usedMemory(info)).isEqualTo(876_543_210L);
    assertThat(RedisMemory.usedMemory("# Memory\r\n")).isEqualTo(-1);
  }

  @Test
  void megabytesAndKeysAreFormattedForTheTables() {
    RedisMemory m = new RedisMemory(876_543_210L, 845_787L, new SyncBacklog(12_345, 7));
    assertThat(m.usedMegabytes()).isEqualTo("876.5");
    assertThat(m.keysText()).isEqualTo("845,787");
    assertThat(m.syncBehindText()).isEqualTo("12.3");
    assertThat(m)
        .hasToString("used_memory 876.5 MB, 845,787 keys, history sync 12.3 s behind, 7 pending");
    RedisMemory withoutSync = new RedisMemory(-1, 0, null);
    assertThat(withoutSync.usedMegabytes()).isEqualTo("–");
    assertThat(withoutSync.syncBehindText()).isEqualTo("–");
  }

  @Test
  void aSyncBacklogIsCaughtUpOnlyWithNothingUndeliveredOrPending() {
    assertThat(SyncBacklog.NONE.caughtUp()).isTrue();
    assertThat(new SyncBacklog(1, 0).caughtUp()).isFalse();
    assertThat(new SyncBacklog(0, 3).caughtUp()).isFalse();
    assertThat(SyncBacklog.idMs("1795833087985-12")).isEqualTo(1_795_833_087_985L);
  }
}
