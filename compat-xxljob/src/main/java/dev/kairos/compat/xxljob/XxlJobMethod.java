package dev.kairos.compat.xxljob;

import com.xxl.job.core.handler.annotation.XxlJob;
import dev.kairos.mq.executor.JobContext;
import dev.kairos.mq.spring.AnnotatedJobMethod;
import java.lang.reflect.Method;
import java.nio.file.Path;

/**
 * One {@code @XxlJob} method bound to its bean, run as a Kairos handler of the same name. As in
 * xxl-job, the method's parameters (if any) receive nulls and its return value is ignored: the
 * outcome comes from {@code XxlJobHelper.handle*} or an exception ({@link XxlJobRun}). The
 * annotation's init and destroy methods run with the executor's start and stop.
 */
final class XxlJobMethod extends AnnotatedJobMethod {

  private final Path logDir;

  XxlJobMethod(String beanName, Object bean, Method method, XxlJob annotation, Path logDir) {
    super(
        "XxlJob",
        annotation.value().trim(),
        beanName,
        bean,
        method,
        annotation.init(),
        annotation.destroy());
    this.logDir = logDir;
  }

  @Override
  public String describe() {
    return super.describe() + " (@XxlJob)";
  }

  @Override
  public void execute(JobContext context) throws Exception {
    XxlJobRun.run(context, logDir, () -> invokeMethod(new Object[parameterCount()]));
  }
}
