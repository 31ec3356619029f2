package dev.kairos.node.api.problem;

/**
 * The detail of a problem for an error no controller described. Fixed texts: the container's own
 * messages quote the rejected request line or header, which is not echoed back.
 */
final class ErrorDetails {

  private ErrorDetails() {}

  static String of(ProblemType type, int status, String method) {
    return switch (type) {
      case NOT_FOUND -> "nothing is served at this path; the API is under /api/v1 (docs/api.md)";
      case METHOD_NOT_ALLOWED ->
          "method "
              + method
              + " is not supported at this path; the Allow header lists those that are";
      case NOT_ACCEPTABLE ->
          "the API answers in application/json, and errors in application/problem+json; send"
              + " Accept: application/json";
      case PAYLOAD_TOO_LARGE -> "the request body is too large";
      case UNSUPPORTED_MEDIA_TYPE -> "send the body as application/json";
      case UNAUTHENTICATED -> "send a token: Authorization: Bearer <token>";
      case FORBIDDEN -> "the request is not allowed";
      case INTERNAL_ERROR -> "the node failed to handle the request; see its log";
      default ->
          "the request was refused before it reached the API (status "
              + status
              + "): a malformed request line or path (an encoded '/' or NUL, ';', '//', '..'),"
              + " a header over the size limit, or invalid characters";
    };
  }
}
