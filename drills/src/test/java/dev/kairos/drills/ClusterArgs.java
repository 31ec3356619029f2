package dev.kairos.drills;

import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * On a drill class: arguments every node and executor of its cluster starts with (e.g. {@code
 * --kairos.redis.wait-replicas=1}; the drill executor maps {@code kairos.redis.*} onto its own
 * {@code kairos.executor.redis.*}).
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Inherited
@interface ClusterArgs {
  String[] value();
}
