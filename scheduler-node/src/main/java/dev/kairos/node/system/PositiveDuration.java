package dev.kairos.node.system;

import jakarta.validation.Constraint;
import jakarta.validation.ConstraintValidator;
import jakarta.validation.ConstraintValidatorContext;
import jakarta.validation.Payload;
import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.time.Duration;

/**
 * A duration property that must be more than zero, such as the pause of a periodic loop: a zero
 * would spin the loop without a pause, so the node refuses it when it binds its properties, naming
 * the property, rather than when the loop first runs. Null is left to {@code @NotNull}.
 */
@Documented
@Constraint(validatedBy = PositiveDuration.Validator.class)
@Target({ElementType.FIELD, ElementType.METHOD, ElementType.PARAMETER})
@Retention(RetentionPolicy.RUNTIME)
public @interface PositiveDuration {

  String message() default "must be a positive duration (more than 0)";

  Class<?>[] groups() default {};

  Class<? extends Payload>[] payload() default {};

  /** Checks the constraint; Bean Validation instantiates it. */
  final class Validator implements ConstraintValidator<PositiveDuration, Duration> {

    @Override
    public boolean isValid(Duration value, ConstraintValidatorContext context) {
      return value == null || !(value.isNegative() || value.isZero());
    }
  }
}
