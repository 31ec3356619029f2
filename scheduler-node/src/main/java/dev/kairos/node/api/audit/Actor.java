package dev.kairos.node.api.audit;

import dev.kairos.node.api.security.ApiTokenIntrospector;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.security.oauth2.core.OAuth2AuthenticatedPrincipal;

/**
 * Who makes this request: the token's name (never the token) and where the token comes from, {@code
 * config} or a runtime token's id ({@link ApiTokenIntrospector#SOURCE_ATTRIBUTE}). The console
 * calls the API with its user's token, so a console change names that token too.
 *
 * @param name the token's name, {@code ?} without authentication (the API with tokens off)
 * @param source {@code config}, a runtime token id, or {@code none}
 */
public record Actor(String name, String source) {

  public static Actor current() {
    Authentication auth = SecurityContextHolder.getContext().getAuthentication();
    if (auth == null) {
      return new Actor("?", "none");
    }
    String source = "none";
    if (auth.getPrincipal() instanceof OAuth2AuthenticatedPrincipal principal) {
      Object attribute = principal.getAttribute(ApiTokenIntrospector.SOURCE_ATTRIBUTE);
      if (attribute != null) {
        source = attribute.toString();
      }
    }
    return new Actor(auth.getName(), source);
  }
}
