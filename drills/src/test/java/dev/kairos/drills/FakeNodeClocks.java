package dev.kairos.drills;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * On a drill class: its nodes run under libfaketime with a clock file each ({@link
 * DrillCluster#fakeNodeClocks}), so the drill can step one node's wall clock.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@interface FakeNodeClocks {}
