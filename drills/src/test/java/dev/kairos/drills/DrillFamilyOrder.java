package dev.kairos.drills;

import java.util.Comparator;
import org.junit.jupiter.api.ClassDescriptor;
import org.junit.jupiter.api.ClassOrderer;
import org.junit.jupiter.api.ClassOrdererContext;
import org.junit.jupiter.api.Order;

/**
 * Runs the drills of one {@link DrillFamily} one after another, so each family's cluster starts
 * once per test JVM ({@link SharedDrillCluster}); classes that are no family's drill (unit tests,
 * {@code ExecutorLossDrillIT} with its own cluster) come first, then the families by label, each
 * family's drills by {@link Order} (none: 0), then by name. Set for the drills module in {@code
 * junit-platform.properties}; Failsafe hands every class of the run to one JUnit launch, so the
 * order covers the whole run.
 */
public final class DrillFamilyOrder implements ClassOrderer {

  @Override
  public void orderClasses(ClassOrdererContext context) {
    context
        .getClassDescriptors()
        .sort(
            Comparator.comparing((ClassDescriptor d) -> familyKey(d.getTestClass()))
                .thenComparingInt(d -> d.findAnnotation(Order.class).map(Order::value).orElse(0))
                .thenComparing(d -> d.getTestClass().getName()));
  }

  private static String familyKey(Class<?> testClass) {
    if (!DrillBase.class.isAssignableFrom(testClass)) {
      return "";
    }
    DrillFamily family = DrillFamily.of(testClass);
    // The label names the family; the whole record tells apart two that a label would not.
    return family.label() + " " + family;
  }
}
