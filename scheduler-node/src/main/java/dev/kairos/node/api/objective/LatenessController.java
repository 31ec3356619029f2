package dev.kairos.node.api.objective;

import dev.kairos.core.alarm.AlarmRecipients;
import dev.kairos.core.error.KairosException;
import dev.kairos.core.model.JobDefinition;
import dev.kairos.core.model.LatenessObjective;
import dev.kairos.core.store.JobNotFoundException;
import dev.kairos.core.store.JobStore;
import dev.kairos.core.time.ClusterClock;
import dev.kairos.node.api.problem.ApiProblemException;
import dev.kairos.node.api.problem.ProblemType;
import dev.kairos.node.api.web.Callers;
import dev.kairos.node.api.web.JobIds;
import dev.kairos.node.objective.NodeObjectives;
import dev.kairos.objectives.JobObjective;
import dev.kairos.objectives.LatenessHistory;
import dev.kairos.objectives.ObjectiveStatus;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code GET /api/v1/jobs/{id}/lateness}: the job's start lateness over its objective's window,
 * judged now on whichever node answers (one indexed query of the history), so it does not depend on
 * the leader's last pass. Readable by whoever may read the job.
 */
@RestController
class LatenessController {

  private static final Logger log = LoggerFactory.getLogger(LatenessController.class);

  private final JobStore store;
  private final NodeObjectives objectives;
  private final ClusterClock clock;

  LatenessController(JobStore store, NodeObjectives objectives, ClusterClock clock) {
    this.store = store;
    this.objectives = objectives;
    this.clock = clock;
  }

  @GetMapping(path = "/api/v1/jobs/{id}/lateness", produces = MediaType.APPLICATION_JSON_VALUE)
  LatenessView lateness(@PathVariable String id) {
    JobIds.checked("id", id);
    JobDefinition job = store.get(id).orElseThrow(() -> new JobNotFoundException(id));
    Callers.requireRead(job.app(), () -> new JobNotFoundException(id));
    if (job.latenessObjective().isEmpty()) {
      return LatenessView.none(id);
    }
    LatenessObjective objective = job.latenessObjective().get();
    LatenessHistory reader = objectives.history().orElse(null);
    if (reader == null) {
      throw new ApiProblemException(
          ProblemType.POSTGRES_UNAVAILABLE,
          "lateness is measured from the PostgreSQL history, which this node does not have");
    }
    long now = clock.nowMs();
    try {
      JobObjective declared = new JobObjective(id, job.app(), objective, AlarmRecipients.NONE);
      return LatenessView.of(
          ObjectiveStatus.judge(declared, reader.sample(id, objective, now), now));
    } catch (KairosException e) {
      log.warn("jobId={} lateness not measured: {}", id, e.getMessage());
      throw new ApiProblemException(
          ProblemType.POSTGRES_UNAVAILABLE, "job lateness: PostgreSQL did not answer");
    }
  }
}
