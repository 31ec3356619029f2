package dev.kairos.node.cluster.internal;

import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.PositiveOrZero;

/** Bodies of the internal cluster endpoints (JSON). */
final class ClusterMessages {

  private ClusterMessages() {}

  /**
   * @param term the sender's leader term
   * @param leaderId the sender's node name
   * @param targetIncarnation the incarnation the sender believes it is talking to
   */
  record HeartbeatRequest(
      @PositiveOrZero long term, @NotBlank String leaderId, @NotBlank String targetIncarnation) {}

  /**
   * @param observedTerm the highest term the receiver knows of
   */
  record HeartbeatResponse(long observedTerm) {}

  record StillHearRequest(@PositiveOrZero long term, @NotBlank String targetIncarnation) {}

  /**
   * @param hears true denies the down-confirmation
   */
  record StillHearResponse(boolean hears) {}
}
