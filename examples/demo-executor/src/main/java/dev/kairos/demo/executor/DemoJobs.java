package dev.kairos.demo.executor;

import dev.kairos.mq.executor.JobContext;
import dev.kairos.mq.spring.KairosJob;
import org.springframework.stereotype.Component;

/** The demo's job handlers: one fast, one slow, one that fails about one run in four. */
@Component
public class DemoJobs {

  static final long SLOW_MILLIS = 2_000;

  private final StartCounter starts;

  public DemoJobs(StartCounter starts) {
    this.starts = starts;
  }

  @KairosJob("demoFast")
  public String demoFast(JobContext context) {
    starts.started(context.triggerId(), context.scheduledFireMs());
    return "fast run of " + context.jobId() + " at " + context.scheduledFireMs();
  }

  /** Sleeps about two seconds; a timeout, COVER_EARLY or shutdown interrupts it. */
  @KairosJob("demoSlow")
  public String demoSlow(JobContext context) throws InterruptedException {
    starts.started(context.triggerId(), context.scheduledFireMs());
    context.log().info("sleeping {} ms", SLOW_MILLIS);
    Thread.sleep(SLOW_MILLIS);
    return "slept " + SLOW_MILLIS + " ms";
  }

  /**
   * Fails when the trigger id hashes to 0 mod 4: about one run in four, and the same trigger id
   * always behaves the same, while a retry (a new trigger id) has a fresh chance.
   */
  @KairosJob("demoFlaky")
  public String demoFlaky(JobContext context) {
    starts.started(context.triggerId(), context.scheduledFireMs());
    if (failsOn(context.triggerId())) {
      throw new IllegalStateException("demoFlaky failed on purpose for " + context.triggerId());
    }
    return "flaky run succeeded";
  }

  static boolean failsOn(String triggerId) {
    return Math.floorMod(triggerId.hashCode(), 4) == 0;
  }
}
