package dev.kairos.mq.spring;

import dev.kairos.mq.executor.JobContext;
import java.lang.reflect.Method;
import org.springframework.util.ReflectionUtils;

/**
 * One {@link KairosJob} method bound to its bean, checked when found: a bad signature or a missing
 * init/destroy method fails the application's start with the bean and method named.
 */
final class KairosJobMethod implements CollectedJob {

  private final String handler;
  private final String beanName;
  private final Object bean;
  private final Method method;
  private final Method init;
  private final Method destroy;

  KairosJobMethod(String beanName, Object bean, Method method, KairosJob annotation) {
    this.handler = annotation.value();
    this.beanName = beanName;
    this.bean = bean;
    this.method = method;
    if (handler.isBlank()) {
      throw invalid("the handler name must not be blank");
    }
    Class<?>[] params = method.getParameterTypes();
    if (params.length > 1 || (params.length == 1 && params[0] != JobContext.class)) {
      throw invalid("it must take no argument or one JobContext");
    }
    if (method.getReturnType() != void.class && method.getReturnType() != String.class) {
      throw invalid("it must return void or String");
    }
    this.init = lifecycleMethod(annotation.init(), "init");
    this.destroy = lifecycleMethod(annotation.destroy(), "destroy");
    ReflectionUtils.makeAccessible(method);
  }

  private Method lifecycleMethod(String name, String role) {
    if (name.isEmpty()) {
      return null;
    }
    Method found = ReflectionUtils.findMethod(bean.getClass(), name);
    if (found == null) {
      throw invalid(role + " method " + name + "() does not exist on the bean");
    }
    ReflectionUtils.makeAccessible(found);
    return found;
  }

  private IllegalStateException invalid(String why) {
    return new IllegalStateException(
        "@KairosJob(\"" + handler + "\") on " + beanName + "." + method.getName() + ": " + why);
  }

  @Override
  public String handler() {
    return handler;
  }

  @Override
  public String describe() {
    return beanName + "." + method.getName();
  }

  @Override
  public void execute(JobContext context) throws Exception {
    Object returned =
        CollectedJob.invoke(
            bean, method, method.getParameterCount() == 0 ? new Object[0] : new Object[] {context});
    if (returned != null) {
      context.log().setMessage((String) returned);
    }
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
