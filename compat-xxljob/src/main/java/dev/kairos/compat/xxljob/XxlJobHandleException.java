package dev.kairos.compat.xxljob;

/**
 * An {@code @XxlJob} method that called {@code XxlJobHelper.handleFail} or {@code handleTimeout}
 * (or {@code handleResult} with another code than 200): the run is FAIL, and its message is what
 * the method passed, as xxl-job's console would show it.
 */
final class XxlJobHandleException extends Exception {

  private final String call;

  XxlJobHandleException(String call, String handleMsg) {
    super(handleMsg == null ? "" : handleMsg, null, false, false);
    this.call = call;
  }

  /** The result text starts with this: "XxlJobHelper.handleFail: the message". */
  @Override
  public String toString() {
    return "XxlJobHelper." + call + (getMessage().isEmpty() ? "" : ": " + getMessage());
  }
}
