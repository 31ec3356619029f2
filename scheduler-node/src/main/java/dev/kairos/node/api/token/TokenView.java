package dev.kairos.node.api.token;

import dev.kairos.security.Role;
import dev.kairos.security.token.RuntimeToken;
import dev.kairos.security.token.TokenListing;
import java.time.Instant;
import java.util.List;

/**
 * A runtime token as the API shows it: never the token, never its hash.
 *
 * @param apps the apps an OPERATOR or VIEWER token is limited to; empty: all
 * @param lastUsedAt when it last authenticated a request (up to a minute stale); null: never
 * @param expired whether it has expired (it is listed until revoked)
 */
public record TokenView(
    String id,
    String name,
    String owner,
    Role role,
    List<String> apps,
    Instant createdAt,
    String createdBy,
    Instant expiresAt,
    Instant lastUsedAt,
    boolean expired) {

  static TokenView of(TokenListing listing, long nowMs) {
    RuntimeToken t = listing.token();
    return new TokenView(
        t.id(),
        t.name(),
        t.owner(),
        t.role(),
        t.apps(),
        Instant.ofEpochMilli(t.createdMs()),
        t.createdBy(),
        Instant.ofEpochMilli(t.expiresMs()),
        listing.lastUsedMs().isPresent()
            ? Instant.ofEpochMilli(listing.lastUsedMs().getAsLong())
            : null,
        t.expiredAt(nowMs));
  }
}
