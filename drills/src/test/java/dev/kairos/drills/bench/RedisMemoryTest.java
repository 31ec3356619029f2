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
    RedisMemory m = new RedisMemory(876_543_210L, 845_787L);
    assertThat(m.usedMegabytes()).isEqualTo("876.5");
    assertThat(m.keysText()).isEqualTo("845,787");
    assertThat(new RedisMemory(-1, 0).usedMegabytes()).isEqualTo("–");
  }
}
