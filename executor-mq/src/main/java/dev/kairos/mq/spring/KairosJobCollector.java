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
 * Finds the {@link KairosJob} methods of every bean as it is initialised. A handler name used twice
 * fails the start, naming both methods. Beans are initialised on the context's start-up thread; the
 * map is read once all singletons exist (by {@link KairosExecutorLifecycle#start()}).
 */
public final class KairosJobCollector implements BeanPostProcessor {

  private final Map<String, KairosJobMethod> jobs = new LinkedHashMap<>();

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

  private synchronized void register(KairosJobMethod job) {
    KairosJobMethod previous = jobs.putIfAbsent(job.handler(), job);
    if (previous != null) {
      throw new IllegalStateException(
          "@KairosJob(\""
              + job.handler()
              + "\") is declared twice: on "
              + previous.describe()
              + " and on "
              + job.describe());
    }
  }

  /** Handler name → method, in the order found. */
  synchronized Map<String, KairosJobMethod> jobs() {
    return Collections.unmodifiableMap(new LinkedHashMap<>(jobs));
  }
}
