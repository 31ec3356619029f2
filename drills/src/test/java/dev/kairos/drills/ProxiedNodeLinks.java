package dev.kairos.drills;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * On a drill class: its nodes reach ZooKeeper and Redis through proxies of their own ({@link
 * NodeLinks}), so the drill can partition one node from either.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@interface ProxiedNodeLinks {}
