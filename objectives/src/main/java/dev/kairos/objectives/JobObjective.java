package dev.kairos.objectives;

import dev.kairos.core.alarm.AlarmRecipients;
import dev.kairos.core.model.LatenessObjective;
import java.util.Objects;

/**
 * A job that declares a start-lateness objective, as the history's job table holds it.
 *
 * @param recipients the job's own alarm emails and webhooks, who hear of a breach too
 */
public record JobObjective(
    String jobId, String app, LatenessObjective objective, AlarmRecipients recipients) {

  public JobObjective {
    Objects.requireNonNull(jobId, "jobId");
    Objects.requireNonNull(app, "app");
    Objects.requireNonNull(objective, "objective");
    Objects.requireNonNull(recipients, "recipients");
  }
}
