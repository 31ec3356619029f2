package dev.kairos.console.security;

import java.util.List;
import org.springframework.security.authentication.AuthenticationProvider;
import org.springframework.security.authentication.BadCredentialsException;
import org.springframework.security.authentication.UsernamePasswordAuthenticationToken;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.GrantedAuthority;
import org.springframework.security.oauth2.core.OAuth2AuthenticatedPrincipal;
import org.springframework.security.oauth2.server.resource.introspection.OAuth2IntrospectionException;
import org.springframework.security.oauth2.server.resource.introspection.OpaqueTokenIntrospector;

/**
 * Signs in with an API token: the sign-in form's token field arrives as the password and is checked
 * by the node's own token introspector (the same tokens and roles as {@code /api}). Only the roles
 * ADMIN, OPERATOR and VIEWER carry over; a METRICS token is refused.
 */
final class TokenAuthenticationProvider implements AuthenticationProvider {

  static final String ADMIN = "ROLE_ADMIN";
  static final String OPERATOR = "ROLE_OPERATOR";
  static final String VIEWER = "ROLE_VIEWER";
  private static final List<String> CONSOLE_ROLES = List.of(ADMIN, OPERATOR, VIEWER);

  private final OpaqueTokenIntrospector tokens;

  TokenAuthenticationProvider(OpaqueTokenIntrospector tokens) {
    this.tokens = tokens;
  }

  @Override
  public Authentication authenticate(Authentication attempt) {
    Object credentials = attempt.getCredentials();
    String token = credentials == null ? "" : credentials.toString().trim();
    if (token.isEmpty()) {
      throw new BadCredentialsException("enter an API token");
    }
    OAuth2AuthenticatedPrincipal principal;
    try {
      principal = tokens.introspect(token);
    } catch (OAuth2IntrospectionException e) {
      // The message names no token: it may reach a log line.
      throw new BadCredentialsException("the token is not one of this node's API tokens");
    }
    List<GrantedAuthority> roles =
        principal.getAuthorities().stream()
            .filter(a -> CONSOLE_ROLES.contains(a.getAuthority()))
            .map(a -> (GrantedAuthority) a)
            .toList();
    if (roles.isEmpty()) {
      throw new BadCredentialsException(
          "the token has no console role (ADMIN, OPERATOR or VIEWER)");
    }
    String role = roles.get(0).getAuthority().substring("ROLE_".length());
    ConsoleUser user = new ConsoleUser(principal.getName(), role, token);
    return UsernamePasswordAuthenticationToken.authenticated(user, null, roles);
  }

  @Override
  public boolean supports(Class<?> type) {
    return UsernamePasswordAuthenticationToken.class.isAssignableFrom(type);
  }
}
