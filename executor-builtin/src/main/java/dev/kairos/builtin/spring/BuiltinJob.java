package dev.kairos.builtin.spring;

import dev.kairos.mq.executor.JobContext;
import dev.kairos.mq.executor.JobHandler;
import dev.kairos.mq.spring.CollectedJob;

/** A built-in handler as the starter's collector takes it: a name and the code behind it. */
record BuiltinJob(String handler, JobHandler code) implements CollectedJob {

  @Override
  public String describe() {
    return "built-in " + code.getClass().getSimpleName();
  }

  @Override
  public void execute(JobContext context) throws Exception {
    code.execute(context);
  }
}
