package dev.kairos.node.api.problem;

import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.exc.InvalidFormatException;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import dev.kairos.core.store.JobAlreadyExistsException;
import dev.kairos.core.store.JobDisabledException;
import dev.kairos.core.store.JobNotFoundException;
import dev.kairos.core.store.JobVersionConflictException;
import dev.kairos.core.validation.JobValidationException;
import dev.kairos.node.api.web.BodyTooLargeException;
import io.lettuce.core.RedisCommandTimeoutException;
import io.lettuce.core.RedisConnectionException;
import jakarta.servlet.http.HttpServletRequest;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.http.converter.HttpMessageNotReadableException;
import org.springframework.web.HttpMediaTypeNotAcceptableException;
import org.springframework.web.HttpMediaTypeNotSupportedException;
import org.springframework.web.HttpRequestMethodNotSupportedException;
import org.springframework.web.bind.MissingRequestHeaderException;
import org.springframework.web.bind.MissingServletRequestParameterException;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import org.springframework.web.method.annotation.MethodArgumentTypeMismatchException;

/**
 * Turns every failure of an API controller into {@code application/problem+json} (RFC 9457) with a
 * stable {@link ProblemType} code and, where input is at fault, the fields named. Applies to every
 * controller under {@code dev.kairos.node.api}, so controllers added there later answer the same
 * way without doing anything.
 */
@RestControllerAdvice(basePackages = "dev.kairos.node.api")
public class ApiExceptionHandler {

  private static final Logger log = LoggerFactory.getLogger(ApiExceptionHandler.class);

  @ExceptionHandler(ApiProblemException.class)
  ResponseEntity<ProblemDetail> problem(ApiProblemException e, HttpServletRequest request) {
    return answer(e.type(), e.getMessage(), request, e.errors(), e.properties());
  }

  @ExceptionHandler(JobValidationException.class)
  ResponseEntity<ProblemDetail> invalidJob(JobValidationException e, HttpServletRequest request) {
    List<FieldError> errors =
        e.problems().stream().map(p -> new FieldError(p.field(), p.message())).toList();
    return answer(ProblemType.VALIDATION_FAILED, e.getMessage(), request, errors, Map.of());
  }

  @ExceptionHandler(JobNotFoundException.class)
  ResponseEntity<ProblemDetail> noJob(JobNotFoundException e, HttpServletRequest request) {
    return answer(
        ProblemType.JOB_NOT_FOUND, e.getMessage(), request, List.of(), Map.of("jobId", e.jobId()));
  }

  @ExceptionHandler(JobAlreadyExistsException.class)
  ResponseEntity<ProblemDetail> exists(JobAlreadyExistsException e, HttpServletRequest request) {
    return answer(
        ProblemType.JOB_EXISTS,
        e.getMessage(),
        request,
        List.of(new FieldError("id", "a job with this id already exists")),
        Map.of("jobId", e.jobId()));
  }

  @ExceptionHandler(JobDisabledException.class)
  ResponseEntity<ProblemDetail> disabled(JobDisabledException e, HttpServletRequest request) {
    return answer(
        ProblemType.JOB_DISABLED, e.getMessage(), request, List.of(), Map.of("jobId", e.jobId()));
  }

  @ExceptionHandler(JobVersionConflictException.class)
  ResponseEntity<ProblemDetail> conflict(
      JobVersionConflictException e, HttpServletRequest request) {
    return answer(
        ProblemType.VERSION_CONFLICT,
        e.getMessage(),
        request,
        List.of(),
        Map.of("jobId", e.jobId(), "expectedVersion", e.expected(), "currentVersion", e.actual()));
  }

  /** Jackson could not turn the body into the request type: say which field and why. */
  @ExceptionHandler(HttpMessageNotReadableException.class)
  ResponseEntity<ProblemDetail> unreadable(
      HttpMessageNotReadableException e, HttpServletRequest request) {
    Throwable cause = e.getCause();
    if (hasCause(e, BodyTooLargeException.class)) {
      return answer(
          ProblemType.PAYLOAD_TOO_LARGE,
          findCause(e, BodyTooLargeException.class).getMessage(),
          request,
          List.of(),
          Map.of());
    }
    if (cause instanceof JsonParseException parse) {
      return answer(
          ProblemType.MALFORMED_REQUEST,
          "malformed JSON at line "
              + parse.getLocation().getLineNr()
              + ", column "
              + parse.getLocation().getColumnNr()
              + ": "
              + parse.getOriginalMessage(),
          request,
          List.of(),
          Map.of());
    }
    if (cause instanceof JsonMappingException mapping && !mapping.getPath().isEmpty()) {
      String field = JsonPaths.of(mapping.getPath());
      String message = fieldMessage(mapping);
      return answer(
          ProblemType.INVALID_FIELD,
          field + ": " + message,
          request,
          List.of(new FieldError(field, message)),
          Map.of());
    }
    if (cause instanceof MismatchedInputException mismatch && mismatch.getPath().isEmpty()) {
      String message =
          mismatch.getTargetType() == null
              ? "the body does not have the expected shape"
              : "the body must be a JSON object";
      return answer(ProblemType.MALFORMED_REQUEST, message, request, List.of(), Map.of());
    }
    return answer(
        ProblemType.MALFORMED_REQUEST,
        cause == null ? "a JSON request body is required" : "the request body cannot be read",
        request,
        List.of(),
        Map.of());
  }

  @ExceptionHandler(MethodArgumentTypeMismatchException.class)
  ResponseEntity<ProblemDetail> badParameter(
      MethodArgumentTypeMismatchException e, HttpServletRequest request) {
    String message =
        "must be " + describe(e.getRequiredType()) + " but was " + JsonPaths.quote(e.getValue());
    return answer(
        ProblemType.INVALID_FIELD,
        e.getName() + ": " + message,
        request,
        List.of(new FieldError(e.getName(), message)),
        Map.of());
  }

  @ExceptionHandler(MissingServletRequestParameterException.class)
  ResponseEntity<ProblemDetail> missingParameter(
      MissingServletRequestParameterException e, HttpServletRequest request) {
    return answer(
        ProblemType.INVALID_FIELD,
        e.getParameterName() + ": is required",
        request,
        List.of(new FieldError(e.getParameterName(), "is required")),
        Map.of());
  }

  @ExceptionHandler(MissingRequestHeaderException.class)
  ResponseEntity<ProblemDetail> missingHeader(
      MissingRequestHeaderException e, HttpServletRequest request) {
    return answer(
        ProblemType.INVALID_FIELD,
        e.getHeaderName() + ": header is required",
        request,
        List.of(new FieldError(e.getHeaderName(), "header is required")),
        Map.of());
  }

  @ExceptionHandler(HttpMediaTypeNotSupportedException.class)
  ResponseEntity<ProblemDetail> mediaType(
      HttpMediaTypeNotSupportedException e, HttpServletRequest request) {
    return answer(
        ProblemType.UNSUPPORTED_MEDIA_TYPE,
        "Content-Type " + e.getContentType() + " is not supported; send application/json",
        request,
        List.of(new FieldError("Content-Type", "must be application/json")),
        Map.of());
  }

  @ExceptionHandler(HttpMediaTypeNotAcceptableException.class)
  ResponseEntity<ProblemDetail> notAcceptable(
      HttpMediaTypeNotAcceptableException e, HttpServletRequest request) {
    return answer(ProblemType.NOT_ACCEPTABLE, e.getMessage(), request, List.of(), Map.of());
  }

  @ExceptionHandler(HttpRequestMethodNotSupportedException.class)
  ResponseEntity<ProblemDetail> method(
      HttpRequestMethodNotSupportedException e, HttpServletRequest request) {
    return answer(ProblemType.METHOD_NOT_ALLOWED, e.getMessage(), request, List.of(), Map.of());
  }

  @ExceptionHandler(RedisConnectionException.class)
  ResponseEntity<ProblemDetail> redisDown(RuntimeException e, HttpServletRequest request) {
    log.warn("API call {} failed: Redis unavailable ({})", request.getRequestURI(), e.toString());
    return answer(
        ProblemType.REDIS_UNAVAILABLE,
        "Redis did not answer; nothing was changed by this node, retry later",
        request,
        List.of(),
        Map.of());
  }

  /**
   * A command that timed out may still have run on Redis (a slow server, a large import), so the
   * answer must not claim that nothing changed.
   */
  @ExceptionHandler(RedisCommandTimeoutException.class)
  ResponseEntity<ProblemDetail> redisSlow(RuntimeException e, HttpServletRequest request) {
    log.warn("API call {} failed: Redis timed out ({})", request.getRequestURI(), e.toString());
    return answer(
        ProblemType.REDIS_UNAVAILABLE,
        "Redis did not answer in time; part of the change may have been applied. Read the jobs"
            + " before retrying: imports and batch enable/disable/delete are safe to repeat",
        request,
        List.of(),
        Map.of());
  }

  @ExceptionHandler(Exception.class)
  ResponseEntity<ProblemDetail> unexpected(Exception e, HttpServletRequest request) {
    log.error("API call {} {} failed", request.getMethod(), request.getRequestURI(), e);
    return answer(
        ProblemType.INTERNAL_ERROR,
        "the node failed to handle the request; see its log",
        request,
        List.of(),
        Map.of());
  }

  private static ResponseEntity<ProblemDetail> answer(
      ProblemType type,
      String detail,
      HttpServletRequest request,
      List<FieldError> errors,
      Map<String, Object> properties) {
    return Problems.response(
        Problems.detail(type, detail, request.getRequestURI(), errors, properties));
  }

  private static String fieldMessage(JsonMappingException e) {
    if (e instanceof UnrecognizedPropertyException unknown) {
      return "is not a known field; known fields: "
          + unknown.getKnownPropertyIds().stream()
              .map(String::valueOf)
              .sorted()
              .collect(Collectors.joining(", "));
    }
    if (e instanceof InvalidFormatException format && format.getTargetType() != null) {
      return "must be "
          + describe(format.getTargetType())
          + " but was "
          + JsonPaths.quote(format.getValue());
    }
    if (e instanceof MismatchedInputException mismatch && mismatch.getTargetType() != null) {
      return "must be " + describe(mismatch.getTargetType());
    }
    return "cannot be read: " + e.getOriginalMessage();
  }

  /** "one of [A, B]" for enums, a plain word for the JSON types. */
  static String describe(Class<?> type) {
    if (type == null) {
      return "of another type";
    }
    if (type.isEnum()) {
      return "one of "
          + Arrays.stream(type.getEnumConstants())
              .map(c -> ((Enum<?>) c).name())
              .collect(Collectors.joining(", ", "[", "]"));
    }
    if (type == Long.class || type == long.class || type == Integer.class || type == int.class) {
      return "an integer";
    }
    if (type == Double.class || type == double.class) {
      return "a number";
    }
    if (type == Boolean.class || type == boolean.class) {
      return "true or false";
    }
    if (type == String.class) {
      return "a string";
    }
    if (List.class.isAssignableFrom(type) || type.isArray()) {
      return "an array";
    }
    return "an object";
  }

  private static boolean hasCause(Throwable e, Class<? extends Throwable> type) {
    return findCause(e, type) != null;
  }

  private static Throwable findCause(Throwable e, Class<? extends Throwable> type) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (type.isInstance(t)) {
        return t;
      }
    }
    return null;
  }
}
