package dev.kairos.migrate.xxljob.web;

import dev.kairos.core.time.ClusterClock;
import dev.kairos.migrate.xxljob.XxlJobMigration;
import dev.kairos.migrate.xxljob.kairos.KairosApiException;
import dev.kairos.migrate.xxljob.kairos.KairosImportClient;
import dev.kairos.migrate.xxljob.mapping.MappingOptions;
import dev.kairos.migrate.xxljob.report.MigrationReport;
import dev.kairos.migrate.xxljob.source.SqlDumpReader;
import dev.kairos.migrate.xxljob.source.XxlSourceException;
import jakarta.servlet.http.HttpServletRequest;
import java.net.URI;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code POST /api/v1/migrations/xxl-job}: the body is an xxl-job dump (text); the answer is the
 * report. The jobs go through this node's own {@code /api/v1/job-import} with the caller's token,
 * so the node's validation and roles decide: a dry run by default, {@code ?apply=true} writes. Like
 * every other POST under {@code /api/}, it needs an ADMIN token.
 */
@RestController
class XxlJobMigrationController {

  private static final Logger AUDIT = LoggerFactory.getLogger("dev.kairos.node.api.audit");

  private final LongSupplier nowMs;
  private final int batchSize;

  XxlJobMigrationController(ClusterClock clock, int batchSize) {
    this.nowMs = clock != null ? clock::nowMs : System::currentTimeMillis;
    this.batchSize = batchSize;
  }

  @PostMapping(path = "/api/v1/migrations/xxl-job", produces = MediaType.APPLICATION_JSON_VALUE)
  MigrationReport migrate(
      @RequestBody String dump,
      @RequestParam(defaultValue = "false") boolean apply,
      @RequestParam(required = false) String zone,
      @RequestParam(required = false) String idPrefix,
      HttpServletRequest request) {
    XxlJobMigration.Plan plan =
        XxlJobMigration.plan(
            SqlDumpReader.read(dump, "request body"),
            new MappingOptions(idPrefix, zone, nowMs.getAsLong()));
    // The security filter accepted this bearer token as ADMIN; the import sees the same caller.
    String token = request.getHeader(HttpHeaders.AUTHORIZATION).replaceFirst("(?i)^bearer\\s+", "");
    KairosImportClient kairos = new KairosImportClient(self(request), token, batchSize);
    if (!apply) {
      return XxlJobMigration.check(plan, kairos);
    }
    MigrationReport report = XxlJobMigration.apply(plan, kairos);
    AUDIT.info(
        "xxl-job import: {} of {} jobs written, {} skipped",
        report.importable(),
        report.total(),
        report.skipped());
    return report;
  }

  /** This node, as the request reached it (the address and port it arrived on). */
  private static URI self(HttpServletRequest request) {
    String host = request.getLocalAddr();
    if (host.contains(":")) {
      host = "[" + host + "]";
    }
    return URI.create(
        request.getScheme()
            + "://"
            + host
            + ":"
            + request.getLocalPort()
            + request.getContextPath()
            + "/");
  }

  @ExceptionHandler(XxlSourceException.class)
  ProblemDetail unreadable(XxlSourceException e) {
    ProblemDetail problem =
        ProblemDetail.forStatusAndDetail(HttpStatus.BAD_REQUEST, e.getMessage());
    problem.setTitle("Unreadable xxl-job dump");
    problem.setProperty("code", "invalid-dump");
    return problem;
  }

  /** The job import refused (its status and text) or failed (502). Nothing was written. */
  @ExceptionHandler(KairosApiException.class)
  ProblemDetail refused(KairosApiException e) {
    int status = e.status() >= 400 && e.status() < 500 ? e.status() : 502;
    ProblemDetail problem =
        ProblemDetail.forStatusAndDetail(HttpStatus.valueOf(status), e.getMessage());
    problem.setTitle("The job import refused the xxl-job jobs");
    problem.setProperty("code", "import-refused");
    return problem;
  }
}
