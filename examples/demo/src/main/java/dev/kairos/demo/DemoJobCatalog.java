package dev.kairos.demo;

import dev.kairos.core.model.BlockStrategy;
import dev.kairos.core.model.JobDefinition;
import dev.kairos.core.store.JobAlreadyExistsException;
import dev.kairos.core.store.JobStore;
import java.util.ArrayList;
import java.util.List;

/**
 * The demo's jobs, all for the demo executor's app {@code demo}: twenty fast jobs every second, one
 * slow job every five seconds that runs serially, one flaky job every two seconds.
 */
final class DemoJobCatalog {

  static final String APP = "demo";
  static final int FAST_JOBS = 20;

  private DemoJobCatalog() {}

  static List<JobDefinition> jobs() {
    List<JobDefinition> jobs = new ArrayList<>();
    for (int i = 0; i < FAST_JOBS; i++) {
      jobs.add(
          JobDefinition.builder("demo-fast-" + i)
              .app(APP)
              .handler("demoFast")
              .cron("* * * * * *")
              .params("{\"n\":" + i + "}")
              .build());
    }
    jobs.add(
        JobDefinition.builder("demo-slow")
            .app(APP)
            .handler("demoSlow")
            .cron("*/5 * * * * *")
            .block(BlockStrategy.SERIAL_EXECUTION)
            .timeoutMs(4_000)
            .build());
    jobs.add(
        JobDefinition.builder("demo-flaky")
            .app(APP)
            .handler("demoFlaky")
            .cron("*/2 * * * * *")
            .build());
    return jobs;
  }

  /** Creates the jobs that do not exist yet (a restarted demo keeps its Redis data). */
  static List<JobDefinition> createAll(JobStore store) {
    List<JobDefinition> created = new ArrayList<>();
    for (JobDefinition job : jobs()) {
      try {
        created.add(store.create(job));
      } catch (JobAlreadyExistsException e) {
        created.add(store.get(job.id()).orElseThrow());
      }
    }
    return created;
  }
}
