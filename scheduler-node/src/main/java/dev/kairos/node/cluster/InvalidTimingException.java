package dev.kairos.node.cluster;

import dev.kairos.core.error.KairosException;
import java.util.List;

/** The timing parameters break one or more rules; the node must not start. */
public final class InvalidTimingException extends KairosException {

  private final List<String> violations;

  public InvalidTimingException(List<String> violations) {
    super(
        "Kairos timing parameters violate "
            + violations.size()
            + " rule(s):\n  - "
            + String.join("\n  - ", violations));
    this.violations = List.copyOf(violations);
  }

  /** One message per broken rule, each naming the property and the rule. */
  public List<String> violations() {
    return violations;
  }
}
