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
 * @param admin whether the token's role is ADMIN (otherwise VIEWER)
 */
public record ConsoleUser(String name, boolean admin, String token)
    implements Principal, Serializable {

  @Override
  public String getName() {
    return name;
  }

  public String role() {
    return admin ? "ADMIN" : "VIEWER";
  }

  @Override
  public String toString() {
    return "ConsoleUser[" + name + ", " + role() + "]";
  }
}
