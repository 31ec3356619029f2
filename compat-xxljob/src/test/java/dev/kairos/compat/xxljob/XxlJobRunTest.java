package dev.kairos.compat.xxljob;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.xxl.job.core.context.XxlJobContext;
import com.xxl.job.core.context.XxlJobHelper;
import dev.kairos.core.model.BlockStrategy;
import dev.kairos.mq.executor.JobContext;
import dev.kairos.protocol.message.TriggerMessage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** xxl-job-core's own XxlJobHelper, called inside {@link XxlJobRun}, answers from Kairos' run. */
class XxlJobRunTest {

  @TempDir Path logDir;

  private static JobContext context(String jobId, String params, int shardIndex, int shardTotal) {
    long fire = 1_767_225_600_000L;
    String triggerId =
        jobId + ":" + fire + (shardTotal > 1 ? "#" + shardIndex + "/" + shardTotal : "");
    return JobContext.of(
        TriggerMessage.of(
            triggerId,
            "legacy",
            "report",
            fire,
            1,
            params,
            shardIndex,
            shardTotal,
            0,
            BlockStrategy.SERIAL_EXECUTION,
            1,
            fire));
  }

  @Test
  void paramsShardAndNumericJobIdReachXxlJobHelper() throws Exception {
    List<Object> seen = new ArrayList<>();
    XxlJobRun.run(
        context("xxl-42", "{\"day\":1}", 2, 5),
        logDir,
        () -> {
          seen.add(XxlJobHelper.getJobParam());
          seen.add(XxlJobHelper.getShardIndex());
          seen.add(XxlJobHelper.getShardTotal());
          seen.add(XxlJobHelper.getJobId());
          return null;
        });
    assertThat(seen).containsExactly("{\"day\":1}", 2, 5, 42L);
  }

  @Test
  void xxlJobLogLinesLandInTheRunLogAndTheirFileIsDeleted() throws Exception {
    JobContext context = context("report", "", 0, 1);
    XxlJobRun.run(
        context,
        logDir,
        () -> {
          XxlJobHelper.log("processed {} rows", 17);
          XxlJobHelper.log(new IllegalStateException("a logged, not thrown, problem"));
          return null;
        });
    assertThat(context.log().text())
        .contains("processed 17 rows")
        .contains("IllegalStateException: a logged, not thrown, problem");
    try (var files = Files.list(logDir)) {
      assertThat(files).isEmpty();
    }
  }

  @Test
  void handleSuccessMessageBecomesTheRunMessage() throws Exception {
    JobContext context = context("report", "", 0, 1);
    XxlJobRun.run(context, logDir, () -> XxlJobHelper.handleSuccess("42 invoices sent"));
    assertThat(context.log().text()).startsWith("42 invoices sent");
  }

  @Test
  void returningWithoutAHandleCallIsSuccess() throws Exception {
    JobContext context = context("report", "", 0, 1);
    XxlJobRun.run(context, logDir, () -> null);
    assertThat(context.log().text()).isEmpty();
  }

  @Test
  void handleFailFailsTheRunWithItsMessageAndKeepsTheLog() {
    JobContext context = context("report", "", 0, 1);
    assertThatThrownBy(
            () ->
                XxlJobRun.run(
                    context,
                    logDir,
                    () -> {
                      XxlJobHelper.log("before the failure");
                      return XxlJobHelper.handleFail("the bank refused");
                    }))
        .isInstanceOf(XxlJobHandleException.class)
        .hasToString("XxlJobHelper.handleFail: the bank refused");
    assertThat(context.log().text()).contains("before the failure");
  }

  @Test
  void handleTimeoutAndOtherCodesFailTheRun() {
    assertThatThrownBy(
            () ->
                XxlJobRun.run(
                    context("report", "", 0, 1), logDir, () -> XxlJobHelper.handleTimeout()))
        .hasToString("XxlJobHelper.handleTimeout");
    assertThatThrownBy(
            () ->
                XxlJobRun.run(
                    context("report", "", 0, 1),
                    logDir,
                    () -> XxlJobHelper.handleResult(418, "teapot")))
        .hasToString("XxlJobHelper.handleResult(418): teapot");
  }

  @Test
  void aThrowingMethodFailsWithItsExceptionAndLeavesNoContextOnTheThread() {
    assertThatThrownBy(
            () ->
                XxlJobRun.run(
                    context("report", "p", 0, 1),
                    logDir,
                    () -> {
                      throw new IllegalArgumentException("bad row");
                    }))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("bad row");
    assertThat(XxlJobContext.getXxlJobContext()).isNull();
    assertThat(XxlJobHelper.getJobParam()).isNull();
  }

  @Test
  void onlyNumberedJobIdsHaveAnXxlJobId() {
    assertThat(XxlJobIds.numeric("42")).isEqualTo(42);
    assertThat(XxlJobIds.numeric("xxl-42")).isEqualTo(42);
    assertThat(XxlJobIds.numeric("billing.7")).isEqualTo(7);
    assertThat(XxlJobIds.numeric("report2")).isEqualTo(-1);
    assertThat(XxlJobIds.numeric("nightly")).isEqualTo(-1);
  }
}
