package dev.kairos.security.token;

import dev.kairos.security.AppScope;
import dev.kairos.security.Role;
import java.util.List;
import java.util.Objects;

/**
 * An API token created at runtime, as stored: everything about it except the token itself, which is
 * shown once when it is created and kept only as its SHA-256.
 *
 * @param id public handle used to list and revoke it ({@code tok_} and 16 hex digits)
 * @param name what it is for, shown in audit lines and the console ("nightly-ci")
 * @param owner who answers for it (a person or team, e.g. an e-mail address)
 * @param role what it may do
 * @param apps the apps an OPERATOR or VIEWER token is limited to; empty: all apps
 * @param createdMs when it was created, epoch ms of cluster time
 * @param createdBy the identity that created it
 * @param expiresMs from this instant on (epoch ms) it authenticates nothing
 */
public record RuntimeToken(
    String id,
    String name,
    String owner,
    Role role,
    List<String> apps,
    long createdMs,
    String createdBy,
    long expiresMs) {

  public RuntimeToken {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(owner, "owner");
    Objects.requireNonNull(role, "role");
    Objects.requireNonNull(createdBy, "createdBy");
    apps = apps == null ? List.of() : List.copyOf(apps);
  }

  public AppScope scope() {
    return AppScope.of(apps);
  }

  public boolean expiredAt(long nowMs) {
    return nowMs >= expiresMs;
  }
}
