package dev.kairos.node.api.problem;

import java.net.URI;
import org.springframework.http.HttpStatus;

/**
 * Every problem the admin API answers with: a stable code (the RFC 9457 {@code type} is {@code
 * urn:kairos:problem:<code>}, and the body repeats the code as {@code code}), its HTTP status and a
 * title. Clients switch on the code, never on the wording. docs/api.md lists them; controllers
 * added to this package later reuse them (and add entries here rather than inventing strings).
 */
public enum ProblemType {
  MALFORMED_REQUEST(HttpStatus.BAD_REQUEST, "malformed-request", "The request body is not JSON"),
  INVALID_FIELD(
      HttpStatus.BAD_REQUEST,
      "invalid-field",
      "A field or parameter has the wrong type, an unknown value or is not known"),
  VALIDATION_FAILED(HttpStatus.BAD_REQUEST, "validation-failed", "The values break a rule"),
  LIMIT_EXCEEDED(HttpStatus.BAD_REQUEST, "limit-exceeded", "The request asks for too much at once"),
  UNAUTHENTICATED(HttpStatus.UNAUTHORIZED, "unauthenticated", "A valid bearer token is required"),
  FORBIDDEN(HttpStatus.FORBIDDEN, "forbidden", "The token's role may not do this"),
  REQUEST_REJECTED(
      HttpStatus.BAD_REQUEST,
      "request-rejected",
      "The request is not valid HTTP, or its path was refused by the firewall"),
  NOT_FOUND(HttpStatus.NOT_FOUND, "not-found", "No such resource"),
  JOB_NOT_FOUND(HttpStatus.NOT_FOUND, "job-not-found", "No such job"),
  TRIGGER_NOT_FOUND(HttpStatus.NOT_FOUND, "trigger-not-found", "No such trigger"),
  METHOD_NOT_ALLOWED(
      HttpStatus.METHOD_NOT_ALLOWED, "method-not-allowed", "The resource does not support it"),
  JOB_EXISTS(HttpStatus.CONFLICT, "job-exists", "A job with this id already exists"),
  WORKFLOW_EXISTS(HttpStatus.CONFLICT, "workflow-exists", "A workflow with this id already exists"),
  USER_EXISTS(HttpStatus.CONFLICT, "user-exists", "A console user with this name already exists"),
  JOB_DISABLED(HttpStatus.CONFLICT, "job-disabled", "The job is disabled; enable it first"),
  TRIGGER_FINAL(HttpStatus.CONFLICT, "trigger-final", "The trigger has already ended"),
  TRIGGER_WAITING(
      HttpStatus.CONFLICT,
      "trigger-waiting",
      "The trigger waits to be claimed and has no record to change yet"),
  DRAIN_REFUSED(
      HttpStatus.CONFLICT, "drain-refused", "No other serving member could take this node's wheel"),
  VERSION_CONFLICT(
      HttpStatus.CONFLICT, "version-conflict", "The job changed since the version you sent"),
  PAYLOAD_TOO_LARGE(
      HttpStatus.PAYLOAD_TOO_LARGE, "payload-too-large", "The request body is too large"),
  UNSUPPORTED_MEDIA_TYPE(
      HttpStatus.UNSUPPORTED_MEDIA_TYPE,
      "unsupported-media-type",
      "The request body must be application/json"),
  NOT_ACCEPTABLE(
      HttpStatus.NOT_ACCEPTABLE, "not-acceptable", "The API answers in application/json only"),
  PRECONDITION_FAILED(
      HttpStatus.PRECONDITION_FAILED,
      "precondition-failed",
      "The If-Match precondition can never hold (a weak entity tag)"),
  PRECONDITION_REQUIRED(
      HttpStatus.PRECONDITION_REQUIRED,
      "precondition-required",
      "The write needs the version it applies to (If-Match)"),
  POSTGRES_UNAVAILABLE(
      HttpStatus.SERVICE_UNAVAILABLE, "postgres-unavailable", "PostgreSQL is not reachable"),
  REDIS_UNAVAILABLE(HttpStatus.SERVICE_UNAVAILABLE, "redis-unavailable", "Redis did not answer"),
  INTERNAL_ERROR(
      HttpStatus.INTERNAL_SERVER_ERROR, "internal-error", "The node failed to handle the request");

  private static final String URN_PREFIX = "urn:kairos:problem:";

  private final HttpStatus status;
  private final String code;
  private final String title;

  ProblemType(HttpStatus status, String code, String title) {
    this.status = status;
    this.code = code;
    this.title = title;
  }

  public HttpStatus status() {
    return status;
  }

  public String code() {
    return code;
  }

  public String title() {
    return title;
  }

  /**
   * The problem of an error that no controller described: the servlet container's, the path
   * firewall's or Spring MVC's before a handler was found. Unmapped 4xx statuses are {@link
   * #REQUEST_REJECTED}, unmapped 5xx {@link #INTERNAL_ERROR}; the caller keeps the real status.
   */
  public static ProblemType forStatus(int status) {
    return switch (status) {
      case 401 -> UNAUTHENTICATED;
      case 403 -> FORBIDDEN;
      case 404 -> NOT_FOUND;
      case 405 -> METHOD_NOT_ALLOWED;
      case 406 -> NOT_ACCEPTABLE;
      case 413 -> PAYLOAD_TOO_LARGE;
      case 415 -> UNSUPPORTED_MEDIA_TYPE;
      default -> status >= 500 ? INTERNAL_ERROR : REQUEST_REJECTED;
    };
  }

  public URI uri() {
    return URI.create(URN_PREFIX + code);
  }
}
