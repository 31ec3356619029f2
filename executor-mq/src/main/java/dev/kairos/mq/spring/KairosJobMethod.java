package dev.kairos.mq.spring;

import dev.kairos.mq.executor.JobContext;
import java.lang.reflect.Method;

/**
 * One {@link KairosJob} method bound to its bean, checked when found: a bad signature or a missing
 * init/destroy method fails the application's start with the bean and method named. The method
 * takes no argument or the run's {@link JobContext}; a String it returns is the run's message.
 */
final class KairosJobMethod extends AnnotatedJobMethod {

  KairosJobMethod(String beanName, Object bean, Method method, KairosJob annotation) {
    super(
        "KairosJob",
        annotation.value(),
        beanName,
        bean,
        method,
        annotation.init(),
        annotation.destroy());
    Class<?>[] params = method.getParameterTypes();
    if (params.length > 1 || (params.length == 1 && params[0] != JobContext.class)) {
      throw invalid("it must take no argument or one JobContext");
    }
    if (method.getReturnType() != void.class && method.getReturnType() != String.class) {
      throw invalid("it must return void or String");
    }
  }

  @Override
  public void execute(JobContext context) throws Exception {
    Object returned = invokeMethod(parameterCount() == 0 ? new Object[0] : new Object[] {context});
    if (returned != null) {
      context.log().setMessage((String) returned);
    }
  }
}
