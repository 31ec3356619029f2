package dev.kairos.console.security;

import java.io.Serializable;
import java.security.Principal;

/**
 * Who is signed in to the console. The token stays in the server-side session only: the console
 * calls the node's admin API with it, so the API's own roles and audit log apply to every console
 * action. {@link #toString()} leaves it out, because Spring Security and log lines print
 * principals.
 *
 * @param name the token's configured name (never the token)
 * @param role the token's role: ADMIN, OPERATOR or VIEWER
 * @param session whether the token is a signed-in user's session token (signing out revokes it)
 */
public record ConsoleUser(String name, String role, String token, boolean session)
    implements Principal, Serializable {

  /** Cluster-wide controls: pause, tokens. */
  public boolean admin() {
    return "ADMIN".equals(role);
  }

  /** Edit controls of jobs and triggers (an OPERATOR's apps only: the API checks which). */
  public boolean mayWrite() {
    return admin() || "OPERATOR".equals(role);
  }

  @Override
  public String getName() {
    return name;
  }

  @Override
  public String toString() {
    return "ConsoleUser[" + name + ", " + role() + "]";
  }
}
