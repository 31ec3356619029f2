package dev.kairos.compat.xxljob;

import com.xxl.job.core.handler.annotation.XxlJob;
import dev.kairos.mq.spring.KairosJobCollector;
import java.lang.reflect.Method;
import java.nio.file.Path;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.aop.support.AopUtils;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.core.MethodIntrospector;
import org.springframework.core.annotation.AnnotatedElementUtils;

/**
 * Finds the {@code @XxlJob} methods of every bean as it is initialised and registers each with the
 * Kairos starter's {@link KairosJobCollector} under its xxl-job name, so the executor hosts them
 * next to any {@code @KairosJob} methods (one name space: a name used twice fails the start).
 */
final class XxlJobMethodCollector implements BeanPostProcessor {

  private static final Logger log = LoggerFactory.getLogger(XxlJobMethodCollector.class);

  private final KairosJobCollector collector;
  private final Path logDir;

  XxlJobMethodCollector(KairosJobCollector collector, Path logDir) {
    this.collector = collector;
    this.logDir = logDir;
  }

  @Override
  public Object postProcessAfterInitialization(Object bean, String beanName) {
    Class<?> type = AopUtils.getTargetClass(bean);
    if (type.getName().startsWith("com.xxl.job.core.executor.")) {
      // By name: the class pulls in xxl-job's embedded Netty server, which this module leaves out.
      log.warn(
          "bean {} is xxl-job's own executor ({}): with Kairos running the @XxlJob methods, remove"
              + " it (see docs/migrating-from-xxl-job.md) or both will run them",
          beanName,
          type.getName());
    }
    Map<Method, XxlJob> found =
        MethodIntrospector.selectMethods(
            type,
            (MethodIntrospector.MetadataLookup<XxlJob>)
                method -> AnnotatedElementUtils.findMergedAnnotation(method, XxlJob.class));
    found.forEach(
        (method, annotation) -> {
          Method invocable = AopUtils.selectInvocableMethod(method, bean.getClass());
          collector.register(new XxlJobMethod(beanName, bean, invocable, annotation, logDir));
        });
    return bean;
  }
}
