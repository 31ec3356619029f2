package dev.kairos.mq.spring;

import java.lang.reflect.Method;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.aop.support.AopUtils;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.core.MethodIntrospector;
import org.springframework.core.annotation.AnnotatedElementUtils;

/**
 * Finds the {@link KairosJob} methods of every bean as it is initialised, and takes the handlers
 * other modules found ({@link #register}). A handler name used twice fails the start, naming both
 * methods. Beans are initialised on the context's start-up thread; the map is read once all
 * singletons exist (by {@link KairosExecutorLifecycle#start()}).
 */
public final class KairosJobCollector implements BeanPostProcessor {

  private final Map<String, CollectedJob> jobs = new LinkedHashMap<>();

  @Override
  public Object postProcessAfterInitialization(Object bean, String beanName) {
    Class<?> type = AopUtils.getTargetClass(bean);
    Map<Method, KairosJob> found =
        MethodIntrospector.selectMethods(
            type,
            (MethodIntrospector.MetadataLookup<KairosJob>)
                method -> AnnotatedElementUtils.findMergedAnnotation(method, KairosJob.class));
    found.forEach(
        (method, annotation) -> {
          Method invocable = AopUtils.selectInvocableMethod(method, bean.getClass());
          register(new KairosJobMethod(beanName, bean, invocable, annotation));
        });
    return bean;
  }

  /**
   * Adds a handler found by another module; called from a bean post-processor, so while the
   * context's singletons are created.
   *
   * @throws IllegalStateException when the name is taken, naming both declarations
   */
  public synchronized void register(CollectedJob job) {
    CollectedJob previous = jobs.putIfAbsent(job.handler(), job);
    if (previous != null) {
      throw new IllegalStateException(
          "handler \""
              + job.handler()
              + "\" is declared twice: on "
              + previous.describe()
              + " and on "
              + job.describe());
    }
  }

  /** Handler name → method, in the order found. */
  synchronized Map<String, CollectedJob> jobs() {
    return Collections.unmodifiableMap(new LinkedHashMap<>(jobs));
  }
}
