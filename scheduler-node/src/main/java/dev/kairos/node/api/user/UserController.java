package dev.kairos.node.api.user;

import dev.kairos.audit.AuditAction;
import dev.kairos.core.validation.ValidationProblem;
import dev.kairos.node.api.audit.Actor;
import dev.kairos.node.api.audit.AuditTrail;
import dev.kairos.node.api.problem.ApiProblemException;
import dev.kairos.node.api.problem.FieldError;
import dev.kairos.node.api.problem.ProblemType;
import dev.kairos.node.api.security.ApiSecurityConfiguration;
import dev.kairos.security.user.LocalUser;
import dev.kairos.security.user.LocalUserStore;
import dev.kairos.security.user.UserRequest;
import dev.kairos.security.user.UserSessions;
import java.util.List;
import java.util.Map;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;

/**
 * The console's local users (ADMIN only): people who sign in with a name and a password, each with
 * a role and apps like a token's. Passwords go in and never come out.
 */
@RestController
class UserController {

  private static final String USERS = ApiSecurityConfiguration.USERS_PATH;

  private final LocalUserStore users;
  private final UserSessions sessions;
  private final AuditTrail audit;

  UserController(LocalUserStore users, UserSessions sessions, AuditTrail audit) {
    this.users = users;
    this.sessions = sessions;
    this.audit = audit;
  }

  @GetMapping(path = USERS, produces = MediaType.APPLICATION_JSON_VALUE)
  Map<String, List<UserView>> list() {
    return Map.of("items", users.list().stream().map(UserView::of).toList());
  }

  @PostMapping(path = USERS, produces = MediaType.APPLICATION_JSON_VALUE)
  @ResponseStatus(HttpStatus.CREATED)
  UserView create(@RequestBody UserCreateRequest body) {
    UserRequest request =
        new UserRequest(body.username(), body.password(), body.role(), body.apps());
    invalidIf(request.problems());
    LocalUser user =
        users
            .create(request, Actor.current().name())
            .orElseThrow(
                () ->
                    ApiProblemException.field(
                        ProblemType.USER_EXISTS, "username", "is taken: " + body.username()));
    audit.action(AuditAction.USER_CREATED, null, user.toString());
    return UserView.of(user);
  }

  @PutMapping(path = USERS + "/{username}/password")
  @ResponseStatus(HttpStatus.NO_CONTENT)
  void setPassword(@PathVariable String username, @RequestBody PasswordChangeRequest body) {
    invalidIf(UserRequest.passwordProblems(body.password()));
    if (!users.setPassword(username, body.password(), Actor.current().name())) {
      throw notFound(username);
    }
    int ended = sessions.endAll(username, Actor.current().name());
    audit.action(
        AuditAction.USER_PASSWORD_CHANGED,
        null,
        "console user " + username + ", " + ended + " session(s) ended");
  }

  @DeleteMapping(path = USERS + "/{username}")
  @ResponseStatus(HttpStatus.NO_CONTENT)
  void delete(@PathVariable String username) {
    if (!users.delete(username, Actor.current().name())) {
      throw notFound(username);
    }
    int ended = sessions.endAll(username, Actor.current().name());
    audit.action(
        AuditAction.USER_DELETED,
        null,
        "console user " + username + ", " + ended + " session(s) ended");
  }

  private static void invalidIf(List<ValidationProblem> problems) {
    if (!problems.isEmpty()) {
      throw new ApiProblemException(
          ProblemType.VALIDATION_FAILED,
          "the user is invalid: " + problems,
          problems.stream().map(p -> new FieldError(p.field(), p.message())).toList(),
          Map.of());
    }
  }

  private static ApiProblemException notFound(String username) {
    return new ApiProblemException(ProblemType.NOT_FOUND, "no console user " + username);
  }
}
