package dev.kairos.node.api.node;

import dev.kairos.audit.AuditAction;
import dev.kairos.node.api.audit.AuditTrail;
import dev.kairos.node.api.problem.ApiProblemException;
import dev.kairos.node.api.problem.ProblemType;
import dev.kairos.node.cluster.drain.DrainPhase;
import dev.kairos.node.cluster.drain.DrainRefusedException;
import dev.kairos.node.cluster.drain.DrainStatus;
import dev.kairos.node.cluster.drain.NodeDrain;
import dev.kairos.node.system.NodeIdentity;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.responses.ApiResponses;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;

/**
 * Drain of the node that answers (a rolling upgrade): local only, never forwarded. An operator
 * upgrading a node addresses that node's process anyway (stop, replace, start), the answer is the
 * node's own authoritative state, and a forward would need the other node's API address and a token
 * it accepts, which the cluster transport does not carry. {@link NodeDrain} does the work.
 */
@RestController
class DrainController {

  private static final String DRAIN = "/api/v1/node/drain";

  private final ObjectProvider<NodeDrain> drain;
  private final NodeIdentity node;
  private final AuditTrail audit;

  DrainController(ObjectProvider<NodeDrain> drain, NodeIdentity node, AuditTrail audit) {
    this.drain = drain;
    this.node = node;
    this.audit = audit;
  }

  @GetMapping(path = DRAIN, produces = MediaType.APPLICATION_JSON_VALUE)
  DrainStatus status() {
    return drain().status();
  }

  /** 202 with the status when a drain starts or resumes; 200 when one already runs or is done. */
  @ApiResponses({
    @ApiResponse(responseCode = "202", description = "the drain started (poll GET for progress)"),
    @ApiResponse(responseCode = "200", description = "a drain already runs or is done"),
    @ApiResponse(responseCode = "409", description = "no other serving member to take the wheel")
  })
  @PostMapping(path = DRAIN, produces = MediaType.APPLICATION_JSON_VALUE)
  ResponseEntity<DrainStatus> drain(@RequestBody(required = false) DrainRequest request) {
    NodeDrain nodeDrain = drain();
    boolean running = nodeDrain.status().phase().inProgress();
    boolean drained = nodeDrain.status().phase() == DrainPhase.DRAINED;
    try {
      boolean exit = request != null && request.exitWhenDrained();
      DrainStatus status = nodeDrain.request(exit);
      if (!running && !drained) {
        audit.action(
            AuditAction.NODE_DRAIN_STARTED,
            null,
            "node " + node.name() + (exit ? ", exits when drained" : ""));
      }
      return ResponseEntity.status(running || drained ? HttpStatus.OK : HttpStatus.ACCEPTED)
          .body(status);
    } catch (DrainRefusedException e) {
      throw new ApiProblemException(ProblemType.DRAIN_REFUSED, e.getMessage());
    }
  }

  private NodeDrain drain() {
    NodeDrain nodeDrain = drain.getIfAvailable();
    if (nodeDrain == null) {
      throw new ApiProblemException(
          ProblemType.NOT_FOUND,
          "this node does not take part in leadership (kairos.cluster.leadership.enabled=false):"
              + " it holds no wheel and has nothing to drain");
    }
    return nodeDrain;
  }
}
