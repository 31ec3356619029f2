package dev.kairos.console.web;

import dev.kairos.console.security.ConsoleUser;
import org.springframework.security.core.Authentication;
import org.springframework.web.bind.annotation.ControllerAdvice;
import org.springframework.web.bind.annotation.ModelAttribute;

/**
 * What every console page knows: who is signed in and whether edit controls are shown. Hiding is
 * for the eye only; the POSTs behind the controls are refused for a VIEWER by the console's
 * security chain and again by the API.
 */
@ControllerAdvice(basePackageClasses = ConsoleModelAdvice.class)
class ConsoleModelAdvice {

  @ModelAttribute("user")
  ConsoleUser user(Authentication authentication) {
    return authentication != null && authentication.getPrincipal() instanceof ConsoleUser u
        ? u
        : null;
  }

  /** Whether job and trigger edit controls are shown: ADMIN, or OPERATOR of some apps. */
  @ModelAttribute("admin")
  boolean admin(Authentication authentication) {
    return authentication != null
        && authentication.getPrincipal() instanceof ConsoleUser u
        && u.mayWrite();
  }

  /** Whether cluster-wide controls (pause, tokens) are shown: ADMIN only. */
  @ModelAttribute("clusterAdmin")
  boolean clusterAdmin(Authentication authentication) {
    return authentication != null
        && authentication.getPrincipal() instanceof ConsoleUser u
        && u.admin();
  }
}
