package dev.kairos.console.security;

import java.util.Optional;

/**
 * Signs people in with a name and a password, when the node has a user store, or after an OpenID
 * Connect provider vouched for them: the answer is a session token the console then uses like an
 * API token (its role and apps are the person's), and signing out ends it. Without a bean of this
 * type the console accepts tokens only.
 */
public interface PasswordSignIn {

  /**
   * A session token for a person an identity provider signed in, with the role and apps its groups
   * give ({@link OidcGrant}).
   */
  String sessionTokenFor(String name, String role, java.util.List<String> apps);

  /** A session token for this name and password; empty for a wrong pair. */
  Optional<String> sessionToken(String username, String password);

  /** Ends the session of a token {@link #sessionToken} gave. */
  void signOut(String sessionToken, String username);
}
