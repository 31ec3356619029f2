package dev.kairos.console.security;

import java.util.Optional;

/**
 * Signs people in with a name and a password, when the node has a user store: the answer is a
 * session token the console then uses like an API token (its role and apps are the user's), and
 * signing out ends it. Without a bean of this type the console accepts tokens only.
 */
public interface PasswordSignIn {

  /** A session token for this name and password; empty for a wrong pair. */
  Optional<String> sessionToken(String username, String password);

  /** Ends the session of a token {@link #sessionToken} gave. */
  void signOut(String sessionToken, String username);
}
