package dev.kairos.node.api.cluster;

import dev.kairos.coordinator.cluster.LeadershipManager;
import dev.kairos.core.redis.RedisKeys;
import dev.kairos.core.time.ClusterClock;
import dev.kairos.node.system.NodeIdentity;
import dev.kairos.sync.worker.SyncHealth;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * The cluster: nodes, leader, term, wheel sizes per node, shard count, fences, scan and sync lag.
 */
@RestController
class ClusterController {

  private final ClusterReader reader;
  private final RedisKeys keys;
  private final NodeIdentity node;
  private final ClusterClock clock;
  private final ObjectProvider<LeadershipManager> leadership;
  private final ObjectProvider<SyncHealth> sync;

  ClusterController(
      ClusterReader reader,
      RedisKeys keys,
      NodeIdentity node,
      ClusterClock clock,
      ObjectProvider<LeadershipManager> leadership,
      ObjectProvider<SyncHealth> sync) {
    this.reader = reader;
    this.keys = keys;
    this.node = node;
    this.clock = clock;
    this.leadership = leadership;
    this.sync = sync;
  }

  @GetMapping(path = "/api/v1/cluster", produces = MediaType.APPLICATION_JSON_VALUE)
  ClusterView get() {
    List<ClusterView.Member> members = reader.members();
    Set<String> live = members.stream().map(ClusterView.Member::name).collect(Collectors.toSet());
    LeadershipManager manager = leadership.getIfAvailable();
    SyncHealth health = sync.getIfAvailable();
    return new ClusterView(
        node.name(),
        keys.shards(),
        manager == null ? 0 : manager.observedTerm(),
        reader.leader(),
        members,
        reader.wheels(live),
        reader.fences(),
        reader.scan(clock.nowMs()),
        health == null
            ? null
            : new ClusterView.Sync(health.maxLagMs(), health.thresholdMs(), health.isLagging()));
  }
}
