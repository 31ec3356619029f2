package dev.kairos.security.user;

import dev.kairos.security.AppScope;
import dev.kairos.security.Role;
import java.util.List;
import java.util.Objects;

/**
 * A person who signs in to the console with a name and a password, as stored: the password only as
 * its PBKDF2 hash. {@link #toString()} leaves the hash out.
 *
 * @param username what they sign in with, 1-64 characters of [A-Za-z0-9_.@-]
 * @param role what they may do
 * @param apps the apps an OPERATOR or VIEWER is limited to; empty: all apps
 * @param passwordHash the password's hash in Spring Security's encoded form
 * @param createdMs when the user was created, epoch ms of cluster time
 * @param createdBy the identity that created the user
 */
public record LocalUser(
    String username,
    Role role,
    List<String> apps,
    String passwordHash,
    long createdMs,
    String createdBy) {

  public LocalUser {
    Objects.requireNonNull(username, "username");
    Objects.requireNonNull(role, "role");
    Objects.requireNonNull(passwordHash, "passwordHash");
    Objects.requireNonNull(createdBy, "createdBy");
    apps = apps == null ? List.of() : List.copyOf(apps);
  }

  public AppScope scope() {
    return AppScope.of(apps);
  }

  @Override
  public String toString() {
    return "LocalUser[" + username + ", " + role + " of " + scope() + "]";
  }
}
