package dev.kairos.node.api.token;

import dev.kairos.audit.AuditAction;
import dev.kairos.core.time.ClusterClock;
import dev.kairos.core.validation.ValidationProblem;
import dev.kairos.node.api.audit.Actor;
import dev.kairos.node.api.audit.AuditTrail;
import dev.kairos.node.api.problem.ApiProblemException;
import dev.kairos.node.api.problem.FieldError;
import dev.kairos.node.api.problem.ProblemType;
import dev.kairos.node.api.security.ApiSecurityConfiguration;
import dev.kairos.security.token.IssuedToken;
import dev.kairos.security.token.RuntimeTokenStore;
import dev.kairos.security.token.TokenListing;
import dev.kairos.security.token.TokenRequest;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;

/**
 * API tokens managed at runtime (ADMIN only): created with an owner, a role and an expiry, listed
 * with when each was last used, revoked at once on every node. The configured tokens ({@code
 * kairos.api.tokens}) are not listed here: they live in each node's configuration.
 */
@RestController
class TokenController {

  private static final String TOKENS = ApiSecurityConfiguration.TOKENS_PATH;

  private final RuntimeTokenStore store;
  private final ClusterClock clock;
  private final AuditTrail audit;

  TokenController(RuntimeTokenStore store, ClusterClock clock, AuditTrail audit) {
    this.store = store;
    this.clock = clock;
    this.audit = audit;
  }

  @GetMapping(path = TOKENS, produces = MediaType.APPLICATION_JSON_VALUE)
  Map<String, List<TokenView>> list() {
    long now = clock.nowMs();
    return Map.of("items", store.list().stream().map(l -> TokenView.of(l, now)).toList());
  }

  @PostMapping(path = TOKENS, produces = MediaType.APPLICATION_JSON_VALUE)
  @ResponseStatus(HttpStatus.CREATED)
  IssuedTokenView create(@RequestBody TokenCreateRequest body) {
    long now = clock.nowMs();
    // Absent: the default lifetime from the instant the store creates it (createdAt + 90 days).
    Long expiresMs = body.expiresAt() == null ? null : body.expiresAt().toEpochMilli();
    TokenRequest request =
        new TokenRequest(body.name(), body.owner(), body.role(), body.apps(), expiresMs);
    List<ValidationProblem> problems = request.problems(now);
    if (!problems.isEmpty()) {
      throw new ApiProblemException(
          ProblemType.VALIDATION_FAILED,
          "the token request is invalid: " + problems,
          problems.stream().map(p -> new FieldError(p.field(), p.message())).toList(),
          Map.of());
    }
    IssuedToken issued = store.create(request, Actor.current().name());
    // Never the secret: the token's id, name, role and owner.
    audit.action(
        AuditAction.TOKEN_CREATED,
        null,
        "token "
            + issued.token().id()
            + " ("
            + issued.token().name()
            + "), role "
            + issued.token().role()
            + " of "
            + issued.token().scope()
            + ", owner "
            + body.owner());
    return new IssuedTokenView(
        issued.secret(), TokenView.of(new TokenListing(issued.token(), OptionalLong.empty()), now));
  }

  @DeleteMapping(path = TOKENS + "/{id}")
  @ResponseStatus(HttpStatus.NO_CONTENT)
  void revoke(@PathVariable String id) {
    store
        .revoke(id, Actor.current().name())
        .orElseThrow(
            () -> new ApiProblemException(ProblemType.NOT_FOUND, "no API token with id " + id));
    audit.action(AuditAction.TOKEN_REVOKED, null, "token " + id);
  }
}
