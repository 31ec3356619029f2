package dev.kairos.node.cluster.internal;

import dev.kairos.coordinator.cluster.LeadershipManager;
import jakarta.validation.Valid;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RestController;

/**
 * The receiving side of {@link HttpClusterTransport}. Every call must carry the cluster secret (401
 * otherwise, compared in constant time) and name this process's incarnation (409 otherwise: the
 * caller is talking to a previous run of this node name). Registered by {@link
 * LeadershipConfiguration}.
 */
@RestController
@ConditionalOnProperty(
    prefix = "kairos.cluster.leadership",
    name = "enabled",
    matchIfMissing = true)
class ClusterEndpoint {

  private final LeadershipManager manager;
  private final ClusterSecret secret;
  private final LeaderTracker leader;

  ClusterEndpoint(LeadershipManager manager, ClusterSecret secret, LeaderTracker leader) {
    this.manager = manager;
    this.secret = secret;
    this.leader = leader;
  }

  @PostMapping(HttpClusterTransport.HEARTBEAT_PATH)
  ResponseEntity<ClusterMessages.HeartbeatResponse> heartbeat(
      @RequestHeader(name = ClusterSecret.HEADER, required = false) String presented,
      @Valid @RequestBody ClusterMessages.HeartbeatRequest request) {
    HttpStatus refused = refusal(presented, request.targetIncarnation());
    if (refused != null) {
      return ResponseEntity.status(refused).build();
    }
    long observed = manager.onHeartbeat(request.term(), request.leaderId());
    if (request.term() >= observed) {
      leader.heard(request.term(), request.leaderId());
    }
    if (!manager.servesFires()) {
      // Heard, but cut off from Redis: the leader must not count on this node to fire.
      return ResponseEntity.status(HttpStatus.SERVICE_UNAVAILABLE).build();
    }
    return ResponseEntity.ok(new ClusterMessages.HeartbeatResponse(observed));
  }

  @PostMapping(HttpClusterTransport.STILL_HEAR_PATH)
  ResponseEntity<ClusterMessages.StillHearResponse> stillHearLeader(
      @RequestHeader(name = ClusterSecret.HEADER, required = false) String presented,
      @Valid @RequestBody ClusterMessages.StillHearRequest request) {
    HttpStatus refused = refusal(presented, request.targetIncarnation());
    if (refused != null) {
      return ResponseEntity.status(refused).build();
    }
    return ResponseEntity.ok(
        new ClusterMessages.StillHearResponse(manager.stillHearsLeader(request.term())));
  }

  private HttpStatus refusal(String presented, String incarnation) {
    if (!secret.matches(presented)) {
      return HttpStatus.UNAUTHORIZED;
    }
    if (!manager.incarnation().equals(incarnation)) {
      return HttpStatus.CONFLICT;
    }
    return null;
  }
}
