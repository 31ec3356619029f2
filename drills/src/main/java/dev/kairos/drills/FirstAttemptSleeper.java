package dev.kairos.drills;

import dev.kairos.mq.executor.JobContext;
import dev.kairos.mq.spring.KairosJob;
import java.io.IOException;

/**
 * Handler {@value #HANDLER}, for drills that need a run to be in progress when they strike: records
 * its start in the {@link StartRecorder}'s start log, then, on the first attempt of a trigger chain
 * only, sleeps the number of milliseconds given as the trigger's parameters (blank: none). A retry
 * (attempt 2 and later) returns at once, so a chain whose first attempt was lost ends soon after.
 *
 * <p>Registered only in executors started with {@code --}{@value #ENABLED}{@code =true} (see {@link
 * DrillExecutorMain}), so the other drills' executors host the handlers they always did.
 */
public class FirstAttemptSleeper {

  /** Handler name of the jobs that use it. */
  public static final String HANDLER = "drillSleepFirst";

  /** Property that makes {@link DrillExecutorMain} register this handler. */
  public static final String ENABLED = "drills.sleep-first-handler";

  private final StartRecorder starts;

  public FirstAttemptSleeper(StartRecorder starts) {
    this.starts = starts;
  }

  @KairosJob(HANDLER)
  public String run(JobContext context) throws IOException, InterruptedException {
    starts.started(context.triggerId());
    String params = context.params() == null ? "" : context.params().trim();
    long sleepMs = context.attempt() == 1 && !params.isEmpty() ? Long.parseLong(params) : 0;
    Thread.sleep(sleepMs);
    return "slept " + sleepMs + " ms on attempt " + context.attempt();
  }
}
