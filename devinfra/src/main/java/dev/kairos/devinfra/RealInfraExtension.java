package dev.kairos.devinfra;

import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionConfigurationException;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ExtensionContext.Namespace;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolutionException;
import org.junit.jupiter.api.extension.ParameterResolver;
import org.junit.jupiter.api.extension.TestInstanceFactoryContext;
import org.junit.jupiter.api.extension.TestInstancePreConstructCallback;
import org.junit.platform.commons.support.AnnotationSupport;

/**
 * Starts the components a {@link RealInfra} class asks for, once per test JVM, and injects them.
 *
 * <p>The components live in one {@link ComponentPool} in the root context's store, so the engine
 * closes them after the last test of the JVM; a later class asking for more gets the extra ones
 * started into the same pool. A component that cannot start fails the class before any test runs,
 * with the component and the cause in the message.
 *
 * <p>The backend is {@link InfraBackend#selected()}: the embedded kit by default, containers with
 * {@code -Dkairos.infra=containers}. A class the selected backend cannot run (no Docker engine, a
 * component the containers backend does not provide) is skipped with the reason printed, before its
 * instance is built (per-class lifecycles resolve constructor parameters first).
 */
public final class RealInfraExtension
    implements BeforeAllCallback, TestInstancePreConstructCallback, ParameterResolver {

  private static final Namespace NAMESPACE = Namespace.create(RealInfraExtension.class);
  private static final String POOL = "pool";
  private static final String VIEW = "view";
  private static final String GATE = "gate";

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
  public void preConstructTestInstance(
      TestInstanceFactoryContext factoryContext, ExtensionContext context) {
    skipUnlessRunnable(context);
  }

  @Override
  public void beforeAll(ExtensionContext context) {
    skipUnlessRunnable(context);
    infrastructureFor(context);
  }

  /** Aborts (skips) the class with the reason printed when the selected backend cannot run it. */
  private static void skipUnlessRunnable(ExtensionContext context) {
    Class<?> testClass = context.getRequiredTestClass();
    InfraRequest request = InfraRequest.of(annotationOf(testClass));
    gate(context)
        .skipReason(testClass.getName(), request)
        .ifPresent(
            reason -> {
              System.err.println(reason); // surefire/failsafe reports keep it too
              Assumptions.abort(reason);
            });
  }

  private static BackendGate gate(ExtensionContext context) {
    return context
        .getRoot()
        .getStore(NAMESPACE)
        .getOrComputeIfAbsent(
            GATE,
            key -> new BackendGate(InfraBackend.selected(), DockerProbe.TESTCONTAINERS),
            BackendGate.class);
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
    InfraRequest request = InfraRequest.of(annotationOf(testClass));
    InfraBackend backend = gate(context).backend();
    ComponentPool pool =
        context
            .getRoot()
            .getStore(NAMESPACE)
            .getOrComputeIfAbsent(
                POOL,
                key ->
                    new SharedPool(
                        new ComponentPool(
                            EmbeddedInfrastructure.newTempWorkDir(),
                            backend == InfraBackend.CONTAINERS
                                ? new ContainerStarter()
                                : ComponentStarter.EMBEDDED)),
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

  private static RealInfra annotationOf(Class<?> testClass) {
    return findAnnotation(testClass)
        .orElseThrow(
            () ->
                new ExtensionConfigurationException(
                    testClass.getName() + " uses RealInfraExtension without @RealInfra"));
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
