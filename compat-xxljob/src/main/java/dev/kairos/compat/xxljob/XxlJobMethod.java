package dev.kairos.compat.xxljob;

import com.xxl.job.core.handler.annotation.XxlJob;
import dev.kairos.mq.executor.JobContext;
import dev.kairos.mq.spring.CollectedJob;
import java.lang.reflect.Method;
import java.nio.file.Path;
import org.springframework.util.ReflectionUtils;

/**
 * One {@code @XxlJob} method bound to its bean, run as a Kairos handler of the same name. As in
 * xxl-job, the method's parameters (if any) receive nulls and its return value is ignored: the
 * outcome comes from {@code XxlJobHelper.handle*} or an exception ({@link XxlJobRun}). The
 * annotation's init and destroy methods run with the executor's start and stop.
 */
final class XxlJobMethod implements CollectedJob {

  private final String handler;
  private final String beanName;
  private final Object bean;
  private final Method method;
  private final Method init;
  private final Method destroy;
  private final Path logDir;

  XxlJobMethod(String beanName, Object bean, Method method, XxlJob annotation, Path logDir) {
    this.handler = annotation.value().trim();
    this.beanName = beanName;
    this.bean = bean;
    this.method = method;
    this.logDir = logDir;
    if (handler.isEmpty()) {
      throw invalid("the handler name must not be blank");
    }
    this.init = lifecycleMethod(annotation.init(), "init");
    this.destroy = lifecycleMethod(annotation.destroy(), "destroy");
    ReflectionUtils.makeAccessible(method);
  }

  private Method lifecycleMethod(String name, String role) {
    if (name.isBlank()) {
      return null;
    }
    Method found = ReflectionUtils.findMethod(bean.getClass(), name.trim());
    if (found == null) {
      throw invalid(role + " method " + name + "() does not exist on the bean");
    }
    ReflectionUtils.makeAccessible(found);
    return found;
  }

  private IllegalStateException invalid(String why) {
    return new IllegalStateException(
        "@XxlJob(\"" + handler + "\") on " + beanName + "." + method.getName() + ": " + why);
  }

  @Override
  public String handler() {
    return handler;
  }

  @Override
  public String describe() {
    return beanName + "." + method.getName() + " (@XxlJob)";
  }

  @Override
  public void execute(JobContext context) throws Exception {
    XxlJobRun.run(
        context,
        logDir,
        () -> CollectedJob.invoke(bean, method, new Object[method.getParameterCount()]));
  }

  @Override
  public void init() throws Exception {
    if (init != null) {
      CollectedJob.invoke(bean, init, new Object[0]);
    }
  }

  @Override
  public void destroy() throws Exception {
    if (destroy != null) {
      CollectedJob.invoke(bean, destroy, new Object[0]);
    }
  }
}
