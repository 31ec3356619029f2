package dev.kairos.mq.spring;

import java.lang.reflect.Method;
import org.springframework.util.ReflectionUtils;

/**
 * A handler method found by its annotation on a bean ({@code @KairosJob}, or {@code @XxlJob} in the
 * compatibility module), bound to the bean with its optional init and destroy methods. What the two
 * annotations share lives here: the checks made when the method is found (a blank handler name or a
 * missing init/destroy method fails the application's start, naming the annotation, bean and
 * method) and the calls of init and destroy. How a run calls the method is each annotation's own.
 */
public abstract class AnnotatedJobMethod implements CollectedJob {

  private final String annotation;
  private final String handler;
  private final String beanName;
  private final Object bean;
  private final Method method;
  private final Method init;
  private final Method destroy;

  /**
   * @param annotation the annotation's simple name, for error messages ({@code KairosJob})
   * @param initName the init method's name, blank for none
   * @param destroyName the destroy method's name, blank for none
   */
  protected AnnotatedJobMethod(
      String annotation,
      String handler,
      String beanName,
      Object bean,
      Method method,
      String initName,
      String destroyName) {
    this.annotation = annotation;
    this.handler = handler;
    this.beanName = beanName;
    this.bean = bean;
    this.method = method;
    if (handler.isBlank()) {
      throw invalid("the handler name must not be blank");
    }
    this.init = lifecycleMethod(initName, "init");
    this.destroy = lifecycleMethod(destroyName, "destroy");
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

  /** The error that fails the application's start for this method, saying {@code why}. */
  protected final IllegalStateException invalid(String why) {
    return new IllegalStateException(
        "@"
            + annotation
            + "(\""
            + handler
            + "\") on "
            + beanName
            + "."
            + method.getName()
            + ": "
            + why);
  }

  /** Calls the handler method with {@code args}, rethrowing what it threw. */
  protected final Object invokeMethod(Object... args) throws Exception {
    return CollectedJob.invoke(bean, method, args);
  }

  /** The handler method's parameter count. */
  protected final int parameterCount() {
    return method.getParameterCount();
  }

  @Override
  public final String handler() {
    return handler;
  }

  @Override
  public String describe() {
    return beanName + "." + method.getName();
  }

  @Override
  public final void init() throws Exception {
    if (init != null) {
      CollectedJob.invoke(bean, init, new Object[0]);
    }
  }

  @Override
  public final void destroy() throws Exception {
    if (destroy != null) {
      CollectedJob.invoke(bean, destroy, new Object[0]);
    }
  }
}
