package dev.kairos.devinfra;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

class FreePortsTest {

  @Test
  void blocksAreInRangeBindableAndNeverHandedOutTwice() throws Exception {
    Set<Integer> seen = new HashSet<>();
    for (int i = 0; i < 50; i++) {
      int base = FreePorts.pickBlock(0, 10_000);
      assertThat(base).isBetween(FreePorts.LOWEST, FreePorts.HIGHEST);
      // Below the ephemeral range, so no outgoing connection can take the bus port.
      assertThat(base + 10_000).isBetween(FreePorts.LOWEST, FreePorts.HIGHEST);
      assertThat(seen.add(base)).as("port %d handed out twice", base).isTrue();
      try (ServerSocket data = new ServerSocket(base, 1, InetAddress.getLoopbackAddress());
          ServerSocket bus = new ServerSocket(base + 10_000, 1, InetAddress.getLoopbackAddress())) {
        assertThat(data.getLocalPort()).isEqualTo(base);
        assertThat(bus.getLocalPort()).isEqualTo(base + 10_000);
      }
    }
  }

  @Test
  void blockWithNegativeOffsetStaysInRange() {
    for (int i = 0; i < 50; i++) {
      int base = FreePorts.pickBlock(0, -2, 1);
      assertThat(base - 2).isGreaterThanOrEqualTo(FreePorts.LOWEST);
      assertThat(base + 1).isLessThanOrEqualTo(FreePorts.HIGHEST);
    }
  }

  @Test
  void portBoundBySomeoneElseIsSkipped() throws Exception {
    try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      for (int i = 0; i < 200; i++) {
        assertThat(FreePorts.pick()).isNotEqualTo(taken.getLocalPort());
      }
    }
  }
}
