package dev.kairos.security.token;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.kairos.core.redis.KairosRedis;
import dev.kairos.core.redis.RedisKeys;
import dev.kairos.core.time.KairosClock;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The API tokens created at runtime, kept in Redis where every node reads them: one hash from the
 * token's SHA-256 to its record ({@link RedisKeys#apiTokens()}), so authenticating a request is one
 * {@code HGET} and a revocation is refused by every node from the next request on, with no cache to
 * expire. The secret itself is never stored or logged.
 *
 * <p>When a token was last used is written at most once per {@link #LAST_USED_RESOLUTION} per token
 * and node, asynchronously, so a busy token costs no extra round trip per request. Thread-safe.
 */
public final class RuntimeTokenStore {

  private static final Logger log = LoggerFactory.getLogger(RuntimeTokenStore.class);

  /** How stale a token's last-used time may be. */
  public static final Duration LAST_USED_RESOLUTION = Duration.ofMinutes(1);

  private static final ObjectMapper JSON =
      new ObjectMapper().disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

  private final KairosRedis redis;
  private final KairosClock clock;
  private final Map<String, Long> lastUsedWritten = new ConcurrentHashMap<>();

  public RuntimeTokenStore(KairosRedis redis, KairosClock clock) {
    this.redis = Objects.requireNonNull(redis, "redis");
    this.clock = Objects.requireNonNull(clock, "clock");
  }

  /**
   * Creates a token.
   *
   * @throws IllegalArgumentException when the request has {@link TokenRequest#problems}; nothing is
   *     stored then
   */
  public IssuedToken create(TokenRequest asked, String createdBy) {
    long now = clock.nowMs();
    TokenRequest request = asked.expiringFrom(now);
    if (!request.problems(now).isEmpty()) {
      throw new IllegalArgumentException("invalid token request: " + request.problems(now));
    }
    RuntimeToken token =
        new RuntimeToken(
            TokenSecrets.newId(),
            request.name(),
            request.owner(),
            request.role(),
            request.apps(),
            now,
            createdBy,
            request.expiresMs());
    String secret = TokenSecrets.newSecret();
    redis.sync().hset(RedisKeys.apiTokens(), TokenSecrets.sha256Hex(secret), write(token));
    log.info(
        "API token {} ({}, role {} of {}, owner {}) created by {}, expires at {}",
        token.id(),
        token.name(),
        token.role(),
        token.scope(),
        token.owner(),
        createdBy,
        java.time.Instant.ofEpochMilli(token.expiresMs()));
    return new IssuedToken(token, secret);
  }

  /**
   * The unexpired token whose secret this is, if any; notes that it was used.
   *
   * @throws io.lettuce.core.RedisException when Redis does not answer (the caller refuses the
   *     request: an unknown state is not an authenticated one)
   */
  public Optional<RuntimeToken> authenticate(String secret) {
    if (secret == null || !secret.startsWith(TokenSecrets.PREFIX)) {
      return Optional.empty(); // not one of ours: spare Redis the read
    }
    String json = redis.sync().hget(RedisKeys.apiTokens(), TokenSecrets.sha256Hex(secret));
    if (json == null) {
      return Optional.empty();
    }
    RuntimeToken token = read(json);
    long now = clock.nowMs();
    if (token == null || token.expiredAt(now)) {
      return Optional.empty();
    }
    noteUse(token.id(), now);
    return Optional.of(token);
  }

  /** Every stored token, expired ones included (until revoked), oldest first. */
  public List<TokenListing> list() {
    Map<String, String> used = redis.sync().hgetall(RedisKeys.apiTokensLastUsed());
    return redis.sync().hvals(RedisKeys.apiTokens()).stream()
        .map(RuntimeTokenStore::read)
        .filter(Objects::nonNull)
        .sorted(Comparator.comparingLong(RuntimeToken::createdMs).thenComparing(RuntimeToken::id))
        .map(t -> new TokenListing(t, lastUsed(used.get(t.id()))))
        .toList();
  }

  /** Removes the token with this id; the revoked record, or empty when there was none. */
  public Optional<RuntimeToken> revoke(String id, String revokedBy) {
    Map<String, String> all = redis.sync().hgetall(RedisKeys.apiTokens());
    for (Map.Entry<String, String> entry : all.entrySet()) {
      RuntimeToken token = read(entry.getValue());
      if (token != null && token.id().equals(id)) {
        redis.sync().hdel(RedisKeys.apiTokens(), entry.getKey());
        redis.sync().hdel(RedisKeys.apiTokensLastUsed(), id);
        lastUsedWritten.remove(id);
        log.info("API token {} ({}) revoked by {}", id, token.name(), revokedBy);
        return Optional.of(token);
      }
    }
    return Optional.empty();
  }

  /** Removes the token with this secret (a session ending); false when there was none. */
  public boolean revokeSecret(String secret, String revokedBy) {
    String hash = TokenSecrets.sha256Hex(secret);
    String json = redis.sync().hget(RedisKeys.apiTokens(), hash);
    RuntimeToken token = json == null ? null : read(json);
    if (token == null) {
      return false;
    }
    redis.sync().hdel(RedisKeys.apiTokens(), hash);
    redis.sync().hdel(RedisKeys.apiTokensLastUsed(), token.id());
    lastUsedWritten.remove(token.id());
    log.info("API token {} ({}) revoked by {}", token.id(), token.name(), revokedBy);
    return true;
  }

  private void noteUse(String id, long now) {
    Long previous = lastUsedWritten.get(id);
    if (previous != null && now - previous < LAST_USED_RESOLUTION.toMillis()) {
      return;
    }
    lastUsedWritten.put(id, now);
    redis
        .async()
        .hset(RedisKeys.apiTokensLastUsed(), id, Long.toString(now))
        .exceptionally(
            e -> {
              // Bookkeeping only: the request it came from is authenticated either way.
              lastUsedWritten.remove(id);
              log.debug("recording the use of token {} failed: {}", id, e.toString());
              return null;
            });
  }

  private static OptionalLong lastUsed(String ms) {
    try {
      return ms == null ? OptionalLong.empty() : OptionalLong.of(Long.parseLong(ms));
    } catch (NumberFormatException e) {
      return OptionalLong.empty();
    }
  }

  private static String write(RuntimeToken token) {
    try {
      return JSON.writeValueAsString(token);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("a token record is always JSON", e);
    }
  }

  private static RuntimeToken read(String json) {
    try {
      return JSON.readValue(json, RuntimeToken.class);
    } catch (JsonProcessingException | RuntimeException e) {
      // A record this version cannot read authenticates nothing; say so without the hash.
      log.warn("ignoring an unreadable API token record: {}", e.getMessage());
      return null;
    }
  }
}
