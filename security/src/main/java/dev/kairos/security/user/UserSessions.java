package dev.kairos.security.user;

import dev.kairos.core.time.KairosClock;
import dev.kairos.security.Role;
import dev.kairos.security.token.IssuedToken;
import dev.kairos.security.token.RuntimeToken;
import dev.kairos.security.token.RuntimeTokenStore;
import dev.kairos.security.token.TokenRequest;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Turns a person's sign-in into a runtime token of their role and apps, which the console then
 * calls the API with like any other token: one authorization path for people and programs, and a
 * session an admin can see in the token list and revoke. Signing out revokes it; an abandoned one
 * expires after {@link #SESSION_LIFETIME}.
 */
public final class UserSessions {

  /** How long a signed-in session's token lives at most (the console's idle timeout is shorter). */
  public static final Duration SESSION_LIFETIME = Duration.ofHours(12);

  /** The creator named on session tokens, so the token list tells them from the others. */
  public static final String CREATED_BY = "console sign-in";

  private final LocalUserStore users;
  private final RuntimeTokenStore tokens;
  private final KairosClock clock;

  public UserSessions(LocalUserStore users, RuntimeTokenStore tokens, KairosClock clock) {
    this.users = Objects.requireNonNull(users, "users");
    this.tokens = Objects.requireNonNull(tokens, "tokens");
    this.clock = Objects.requireNonNull(clock, "clock");
  }

  /** A session token for this name and password; empty for a wrong pair. */
  public Optional<String> signIn(String username, String password) {
    return users
        .authenticate(username, password)
        .map(user -> issue(user.username(), user.role(), user.apps()));
  }

  /**
   * A session token for a person someone else vouched for (an OpenID Connect provider), with the
   * role and apps its groups give.
   *
   * @throws IllegalArgumentException when name, role or apps break the token rules
   */
  public String issue(String name, Role role, List<String> apps) {
    IssuedToken issued =
        tokens.create(
            new TokenRequest(name, name, role, apps, clock.nowMs() + SESSION_LIFETIME.toMillis()),
            CREATED_BY);
    return issued.secret();
  }

  /**
   * Ends every open session of the user (after a deletion or a password change); the number ended.
   */
  public int endAll(String username, String by) {
    int ended = 0;
    for (var listing : tokens.list()) {
      RuntimeToken t = listing.token();
      if (CREATED_BY.equals(t.createdBy()) && t.name().equals(username)) {
        tokens.revoke(t.id(), by);
        ended++;
      }
    }
    return ended;
  }

  /** Ends the session of this token (its revocation reaches every node at once). */
  public void signOut(String sessionToken, String by) {
    tokens.revokeSecret(sessionToken, by);
  }
}
