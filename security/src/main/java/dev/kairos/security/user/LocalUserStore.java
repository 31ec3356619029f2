package dev.kairos.security.user;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.kairos.core.redis.KairosRedis;
import dev.kairos.core.redis.RedisKeys;
import dev.kairos.core.time.KairosClock;
import dev.kairos.core.validation.ValidationProblem;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.security.crypto.password.DelegatingPasswordEncoder;
import org.springframework.security.crypto.password.PasswordEncoder;
import org.springframework.security.crypto.password.Pbkdf2PasswordEncoder;

/**
 * The console's local users, for deployments without an identity provider: one Redis hash from user
 * name to record ({@link RedisKeys#localUsers()}), passwords kept as PBKDF2-HMAC-SHA256 hashes
 * (310,000 iterations, a random salt each; Spring Security's encoder). Thread-safe.
 */
public final class LocalUserStore {

  private static final Logger log = LoggerFactory.getLogger(LocalUserStore.class);

  private static final ObjectMapper JSON =
      new ObjectMapper().disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

  private final KairosRedis redis;
  private final KairosClock clock;

  /**
   * Hashes carry their algorithm's id ({@code {pbkdf2@SpringSecurity_v5_8}...}), so a later version
   * can move to another KDF and still check the stored ones.
   */
  private static final String KDF = "pbkdf2@SpringSecurity_v5_8";

  private final PasswordEncoder passwords =
      new DelegatingPasswordEncoder(
          KDF, Map.of(KDF, Pbkdf2PasswordEncoder.defaultsForSpringSecurity_v5_8()));

  /** Checked against when the name is unknown, so a miss costs what a wrong password costs. */
  private final String decoy;

  public LocalUserStore(KairosRedis redis, KairosClock clock) {
    this.redis = Objects.requireNonNull(redis, "redis");
    this.clock = Objects.requireNonNull(clock, "clock");
    this.decoy = passwords.encode("not a password of anyone");
  }

  /**
   * Creates a user.
   *
   * @return empty when the name is taken
   * @throws IllegalArgumentException when the request has {@link UserRequest#problems()}
   */
  public Optional<LocalUser> create(UserRequest request, String createdBy) {
    if (!request.problems().isEmpty()) {
      throw new IllegalArgumentException("invalid user request: " + request.problems());
    }
    LocalUser user =
        new LocalUser(
            request.username(),
            request.role(),
            request.apps(),
            passwords.encode(request.password()),
            clock.nowMs(),
            createdBy);
    Boolean created = redis.sync().hsetnx(RedisKeys.localUsers(), user.username(), write(user));
    if (!Boolean.TRUE.equals(created)) {
      return Optional.empty();
    }
    log.info("console user {} created by {}", user, createdBy);
    return Optional.of(user);
  }

  /** The user whose name and password these are; empty for a wrong pair (which one is not said). */
  public Optional<LocalUser> authenticate(String username, String password) {
    if (username == null || password == null) {
      return Optional.empty();
    }
    Optional<LocalUser> user = get(username);
    String hash = user.map(LocalUser::passwordHash).orElse(decoy);
    boolean matches = passwords.matches(password, hash);
    return matches ? user : Optional.empty();
  }

  public Optional<LocalUser> get(String username) {
    String json = redis.sync().hget(RedisKeys.localUsers(), username);
    return json == null ? Optional.empty() : Optional.ofNullable(read(json));
  }

  /** Every user, by name. */
  public List<LocalUser> list() {
    return redis.sync().hvals(RedisKeys.localUsers()).stream()
        .map(LocalUserStore::read)
        .filter(Objects::nonNull)
        .sorted(Comparator.comparing(LocalUser::username))
        .toList();
  }

  /**
   * Sets a new password.
   *
   * @return false when there is no such user
   * @throws IllegalArgumentException when the password breaks {@link UserRequest#passwordProblems}
   */
  public boolean setPassword(String username, String password, String changedBy) {
    List<ValidationProblem> problems = UserRequest.passwordProblems(password);
    if (!problems.isEmpty()) {
      throw new IllegalArgumentException("invalid password: " + problems);
    }
    Optional<LocalUser> user = get(username);
    if (user.isEmpty()) {
      return false;
    }
    LocalUser u = user.get();
    LocalUser changed =
        new LocalUser(
            u.username(),
            u.role(),
            u.apps(),
            passwords.encode(password),
            u.createdMs(),
            u.createdBy());
    redis.sync().hset(RedisKeys.localUsers(), username, write(changed));
    log.info("console user {}'s password changed by {}", username, changedBy);
    return true;
  }

  /** Removes the user; false when there was none. */
  public boolean delete(String username, String deletedBy) {
    boolean deleted = redis.sync().hdel(RedisKeys.localUsers(), username) > 0;
    if (deleted) {
      log.info("console user {} deleted by {}", username, deletedBy);
    }
    return deleted;
  }

  private static String write(LocalUser user) {
    try {
      return JSON.writeValueAsString(user);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("a user record is always JSON", e);
    }
  }

  private static LocalUser read(String json) {
    try {
      return JSON.readValue(json, LocalUser.class);
    } catch (JsonProcessingException | RuntimeException e) {
      log.warn("ignoring an unreadable console user record: {}", e.getMessage());
      return null;
    }
  }
}
