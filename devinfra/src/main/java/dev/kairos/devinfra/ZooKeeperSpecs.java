package dev.kairos.devinfra;

import java.nio.file.Path;
import java.util.Map;
import org.apache.curator.test.InstanceSpec;

/**
 * Server settings shared by the standalone server and the ensemble.
 *
 * <p>A 500 ms tick with sessions allowed from 1 s to 60 s: tests can ask for short sessions and see
 * a real expiry quickly, while the scheduler's production-like timeouts are not clamped.
 */
final class ZooKeeperSpecs {

  static final int TICK_MILLIS = 500;
  static final int MIN_SESSION_MILLIS = 1_000;
  static final int MAX_SESSION_MILLIS = 60_000;
  private static final int MAX_CLIENT_CONNECTIONS = 0; // 0 = unlimited

  private ZooKeeperSpecs() {}

  static InstanceSpec standalone(Path dataDir) {
    return spec(dataDir, FreePorts.pick(), -1, -1, 1);
  }

  static InstanceSpec ensembleMember(Path dataDir, int serverId) {
    return spec(dataDir, FreePorts.pick(), FreePorts.pick(), FreePorts.pick(), serverId);
  }

  private static InstanceSpec spec(
      Path dataDir, int clientPort, int electionPort, int quorumPort, int serverId) {
    // Values must be strings: they end up in the server's java.util.Properties.
    Map<String, Object> properties =
        Map.of(
            "minSessionTimeout",
            String.valueOf(MIN_SESSION_MILLIS),
            "maxSessionTimeout",
            String.valueOf(MAX_SESSION_MILLIS),
            // In ticks; generous so a busy 2-core machine does not drop followers.
            "initLimit",
            "40",
            "syncLimit",
            "20");
    return new InstanceSpec(
        dataDir.toFile(),
        clientPort,
        electionPort,
        quorumPort,
        false,
        serverId,
        TICK_MILLIS,
        MAX_CLIENT_CONNECTIONS,
        properties,
        "127.0.0.1");
  }
}
