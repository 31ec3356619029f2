package dev.kairos.demo.console;

import dev.kairos.mq.executor.JobContext;
import dev.kairos.mq.spring.KairosJob;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

/**
 * A handler whose log the console tails live in {@link ConsoleBrowserIT}: it logs a line every
 * {@link #STEP_MILLIS} ms, {@link #STEPS} times. The first line goes through the class's own SLF4J
 * logger, which the executor starter adds to the trigger's log as well; the rest through the run's
 * log.
 */
@Component
public class ChattyJobs {

  static final String HANDLER = "consoleChatty";
  static final int STEPS = 20;
  static final long STEP_MILLIS = 300;

  private static final Logger log = LoggerFactory.getLogger(ChattyJobs.class);

  @KairosJob(HANDLER)
  public String chatty(JobContext context) throws InterruptedException {
    log.info("chatty run {} starts", context.triggerId());
    for (int i = 1; i <= STEPS; i++) {
      Thread.sleep(STEP_MILLIS);
      context.log().info("step {} of {}", i, STEPS);
    }
    return "logged " + STEPS + " steps";
  }
}
