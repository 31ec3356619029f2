package dev.kairos.devinfra;

import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionConfigurationException;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ExtensionContext.Namespace;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolutionException;
import org.junit.jupiter.api.extension.ParameterResolver;
import org.junit.platform.commons.support.AnnotationSupport;

/**
 * Starts the components a {@link RealInfra} class asks for, once per test JVM, and injects them.
 *
 * <p>The components live in one {@link ComponentPool} in the root context's store, so the engine
 * closes them after the last test of the JVM; a later class asking for more gets the extra ones
 * started into the same pool. A component that cannot start fails the class before any test runs,
 * with the component and the cause in the message.
 */
public final class RealInfraExtension implements BeforeAllCallback, ParameterResolver {

  private static final Namespace NAMESPACE = Namespace.create(RealInfraExtension.class);
  private static final String POOL = "pool";
  private static final String VIEW = "view";

  private static final Map<Class<?>, Function<EmbeddedInfrastructure, Object>> INJECTABLE =
      Map.of(
          EmbeddedInfrastructure.class, infra -> infra,
          EmbeddedRedis.class, EmbeddedInfrastructure::redis,
          EmbeddedRedisCluster.class, EmbeddedInfrastructure::redisCluster,
          EmbeddedZooKeeper.class, EmbeddedInfrastructure::zookeeper,
          EmbeddedZooKeeperEnsemble.class, EmbeddedInfrastructure::zookeeperEnsemble,
          EmbeddedRocketMq.class, EmbeddedInfrastructure::rocketMq,
          EmbeddedPostgreSql.class, EmbeddedInfrastructure::postgres);

  @Override
  public void beforeAll(ExtensionContext context) {
    infrastructureFor(context);
  }

  @Override
  public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
    return INJECTABLE.containsKey(parameter.getParameter().getType());
  }

  @Override
  public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
    Class<?> type = parameter.getParameter().getType();
    Object component = INJECTABLE.get(type).apply(infrastructureFor(context));
    if (component == null) {
      throw new ParameterResolutionException(
          "cannot inject "
              + type.getSimpleName()
              + ": @RealInfra on "
              + context.getRequiredTestClass().getName()
              + " does not ask for it");
    }
    return component;
  }

  /**
   * The view for the test class of {@code context}, starting what it needs on first use. Called
   * from beforeAll and from parameter resolution, because with a per-class test instance the
   * constructor is resolved before beforeAll runs.
   */
  private static EmbeddedInfrastructure infrastructureFor(ExtensionContext context) {
    Class<?> testClass = context.getRequiredTestClass();
    ExtensionContext classContext = classContextOf(context, testClass);
    return classContext
        .getStore(NAMESPACE)
        .getOrComputeIfAbsent(
            VIEW + ":" + testClass.getName(),
            key -> startFor(classContext, testClass),
            EmbeddedInfrastructure.class);
  }

  private static EmbeddedInfrastructure startFor(ExtensionContext context, Class<?> testClass) {
    RealInfra annotation =
        findAnnotation(testClass)
            .orElseThrow(
                () ->
                    new ExtensionConfigurationException(
                        testClass.getName() + " uses RealInfraExtension without @RealInfra"));
    InfraRequest request = InfraRequest.of(annotation);
    ComponentPool pool =
        context
            .getRoot()
            .getStore(NAMESPACE)
            .getOrComputeIfAbsent(
                POOL,
                key -> new SharedPool(new ComponentPool(EmbeddedInfrastructure.newTempWorkDir())),
                SharedPool.class)
            .pool();
    try {
      pool.ensure(request);
    } catch (RuntimeException e) {
      throw new ExtensionConfigurationException(
          "@RealInfra for " + testClass.getName() + " failed: " + e.getMessage(), e);
    }
    return new EmbeddedInfrastructure(pool, request, false);
  }

  private static ExtensionContext classContextOf(ExtensionContext context, Class<?> testClass) {
    ExtensionContext current = context;
    while (current.getTestMethod().isPresent() && current.getParent().isPresent()) {
      current = current.getParent().get();
    }
    return current.getTestClass().filter(testClass::equals).isPresent() ? current : context;
  }

  /** The annotation on the class or, for {@code @Nested} classes, on an enclosing class. */
  private static Optional<RealInfra> findAnnotation(Class<?> testClass) {
    for (Class<?> c = testClass; c != null; c = c.getEnclosingClass()) {
      Optional<RealInfra> found = AnnotationSupport.findAnnotation(c, RealInfra.class);
      if (found.isPresent()) {
        return found;
      }
    }
    return Optional.empty();
  }

  /** Lets the root store close the pool when the test JVM's run ends. */
  private record SharedPool(ComponentPool pool)
      implements ExtensionContext.Store.CloseableResource {
    @Override
    public void close() {
      pool.close();
    }
  }
}
