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
 * Signs in with an API token, or with a user name and password that {@link PasswordSignIn} turns
 * into a session token. The sign-in form's secret field arrives as the password and is checked by
 * the node's own token introspector (the same tokens and roles as {@code /api}). Only the roles
 * ADMIN, OPERATOR and VIEWER carry over; a METRICS token is refused.
 */
final class TokenAuthenticationProvider implements AuthenticationProvider {

  static final String ADMIN = "ROLE_ADMIN";
  static final String OPERATOR = "ROLE_OPERATOR";
  static final String VIEWER = "ROLE_VIEWER";
  private static final List<String> CONSOLE_ROLES = List.of(ADMIN, OPERATOR, VIEWER);

  private final OpaqueTokenIntrospector tokens;
  private final PasswordSignIn users;

  /**
   * @param users signs people in by name and password; null: tokens only
   */
  TokenAuthenticationProvider(OpaqueTokenIntrospector tokens, PasswordSignIn users) {
    this.tokens = tokens;
    this.users = users;
  }

  TokenAuthenticationProvider(OpaqueTokenIntrospector tokens) {
    this(tokens, null);
  }

  @Override
  public Authentication authenticate(Authentication attempt) {
    Object credentials = attempt.getCredentials();
    String secret = credentials == null ? "" : credentials.toString();
    String username = attempt.getName() == null ? "" : attempt.getName().trim();
    boolean session = !username.isEmpty();
    String token;
    if (session) {
      if (users == null) {
        throw new BadCredentialsException("this node signs in with API tokens only");
      }
      // The message names neither the name nor the password: it may reach a log line.
      token =
          users
              .sessionToken(username, secret)
              .orElseThrow(() -> new BadCredentialsException("wrong user name or password"));
    } else {
      token = secret.trim();
    }
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
    ConsoleUser user = new ConsoleUser(principal.getName(), role, token, session);
    return UsernamePasswordAuthenticationToken.authenticated(user, null, roles);
  }

  @Override
  public boolean supports(Class<?> type) {
    return UsernamePasswordAuthenticationToken.class.isAssignableFrom(type);
  }
}
