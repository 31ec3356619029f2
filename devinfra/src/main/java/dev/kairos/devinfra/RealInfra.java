package dev.kairos.devinfra;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Runs the test class against real components, started once per test JVM and shared by every class
 * that asks for them; they are injected as constructor or method parameters by type ({@link
 * EmbeddedRedis}, {@link EmbeddedRedisCluster}, {@link EmbeddedZooKeeper}, {@link
 * EmbeddedZooKeeperEnsemble}, {@link EmbeddedRocketMq}, {@link EmbeddedPostgreSql}, {@link
 * EmbeddedInfrastructure}).
 *
 * <pre>{@code
 * @RealInfra(redis = RedisMode.CLUSTER, zookeeper = ZkMode.STANDALONE)
 * class ClaimIT {
 *   @Test
 *   void oneClaimPerFire(EmbeddedRedisCluster redis, EmbeddedZooKeeper zk) { ... }
 * }
 * }</pre>
 *
 * <p>Shared means shared: a test that stops a component must start it again before it ends, and
 * data written by one class is visible to the next (use distinct keys, znodes, topics, tables).
 */
@Target({ElementType.TYPE, ElementType.ANNOTATION_TYPE})
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
@ExtendWith(RealInfraExtension.class)
public @interface RealInfra {

  RedisMode redis() default RedisMode.NONE;

  ZkMode zookeeper() default ZkMode.NONE;

  boolean rocketMq() default false;

  boolean postgres() default false;
}
