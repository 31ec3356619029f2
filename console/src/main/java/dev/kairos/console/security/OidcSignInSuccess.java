package dev.kairos.console.security;

import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.security.authentication.UsernamePasswordAuthenticationToken;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.authority.AuthorityUtils;
import org.springframework.security.core.context.SecurityContext;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.security.oauth2.core.oidc.user.OidcUser;
import org.springframework.security.web.authentication.AuthenticationSuccessHandler;
import org.springframework.security.web.context.HttpSessionSecurityContextRepository;
import org.springframework.security.web.context.SecurityContextRepository;

/**
 * After an OpenID Connect provider signed a person in: their groups claim gives a role and apps
 * ({@link OidcGrant}), a session token of those is made ({@link PasswordSignIn#sessionTokenFor}),
 * and the session then holds a {@link ConsoleUser} like any other sign-in, so every page calls the
 * API with that token and the API's rules apply. A person with no Kairos group is sent back to the
 * sign-in page with an error and no session.
 */
final class OidcSignInSuccess implements AuthenticationSuccessHandler {

  private static final Logger log = LoggerFactory.getLogger(OidcSignInSuccess.class);

  private static final String NAME_CHARACTERS = "[^A-Za-z0-9_.@-]";

  private final PasswordSignIn sessions;
  private final String groupsClaim;
  private final String groupPrefix;
  private final AuthenticationSuccessHandler next;
  private final String refusedUrl;
  private final SecurityContextRepository contexts = new HttpSessionSecurityContextRepository();

  OidcSignInSuccess(
      PasswordSignIn sessions,
      String groupsClaim,
      String groupPrefix,
      AuthenticationSuccessHandler next,
      String refusedUrl) {
    this.sessions = sessions;
    this.groupsClaim = groupsClaim;
    this.groupPrefix = groupPrefix;
    this.next = next;
    this.refusedUrl = refusedUrl;
  }

  @Override
  public void onAuthenticationSuccess(
      HttpServletRequest request, HttpServletResponse response, Authentication authentication)
      throws IOException, ServletException {
    if (!(authentication.getPrincipal() instanceof OidcUser person)) {
      refuse(request, response, "not an OpenID Connect sign-in");
      return;
    }
    Optional<OidcGrant> grant = OidcGrant.of(groups(person), groupPrefix);
    String name = name(person);
    if (grant.isEmpty()) {
      refuse(request, response, name + " has no group starting with " + groupPrefix);
      return;
    }
    String token = sessions.sessionTokenFor(name, grant.get().role(), grant.get().apps());
    ConsoleUser user = new ConsoleUser(name, grant.get().role(), token, true);
    Authentication signedIn =
        UsernamePasswordAuthenticationToken.authenticated(
            user, null, AuthorityUtils.createAuthorityList("ROLE_" + grant.get().role()));
    SecurityContext context = SecurityContextHolder.createEmptyContext();
    context.setAuthentication(signedIn);
    SecurityContextHolder.setContext(context);
    contexts.saveContext(context, request, response);
    next.onAuthenticationSuccess(request, response, signedIn);
  }

  private Collection<String> groups(OidcUser person) {
    Object claim = person.getClaims().get(groupsClaim);
    if (claim instanceof Collection<?> values) {
      return values.stream().map(String::valueOf).toList();
    }
    return claim == null ? List.of() : List.of(String.valueOf(claim));
  }

  /** A name a token may carry: the preferred user name, else the e-mail, else the subject. */
  private static String name(OidcUser person) {
    String raw =
        person.getPreferredUsername() != null
            ? person.getPreferredUsername()
            : person.getEmail() != null ? person.getEmail() : person.getSubject();
    String clean = raw.replaceAll(NAME_CHARACTERS, "-").replaceFirst("^[^A-Za-z0-9]+", "");
    if (clean.isEmpty()) {
      clean = "oidc-user";
    }
    return clean.length() > 64 ? clean.substring(0, 64) : clean;
  }

  private void refuse(HttpServletRequest request, HttpServletResponse response, String why)
      throws IOException {
    log.info("console sign-in through OpenID Connect refused: {}", why);
    SecurityContextHolder.clearContext();
    if (request.getSession(false) != null) {
      request.getSession(false).invalidate();
    }
    response.sendRedirect(request.getContextPath() + refusedUrl);
  }
}
