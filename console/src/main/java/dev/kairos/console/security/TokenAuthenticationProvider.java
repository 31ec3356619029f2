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
 * by the node's own token introspector (the same hashes and roles as {@code /api}). Only the roles
 * ADMIN and VIEWER carry over; a token with neither is refused.
 */
final class TokenAuthenticationProvider implements AuthenticationProvider {

  static final String ADMIN = "ROLE_ADMIN";
  static final String VIEWER = "ROLE_VIEWER";

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
            .filter(a -> ADMIN.equals(a.getAuthority()) || VIEWER.equals(a.getAuthority()))
            .map(a -> (GrantedAuthority) a)
            .toList();
    if (roles.isEmpty()) {
      throw new BadCredentialsException("the token has no console role (ADMIN or VIEWER)");
    }
    boolean admin = roles.stream().anyMatch(a -> ADMIN.equals(a.getAuthority()));
    ConsoleUser user = new ConsoleUser(principal.getName(), admin, token);
    return UsernamePasswordAuthenticationToken.authenticated(user, null, roles);
  }

  @Override
  public boolean supports(Class<?> type) {
    return UsernamePasswordAuthenticationToken.class.isAssignableFrom(type);
  }
}
