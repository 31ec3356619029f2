package dev.kairos.demo.console;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.kairos.demo.executor.DemoExecutorApplication;
import dev.kairos.devinfra.EmbeddedInfrastructure;
import dev.kairos.devinfra.RealInfra;
import dev.kairos.devinfra.RedisMode;
import dev.kairos.devinfra.ZkMode;
import dev.kairos.node.KairosNodeApplication;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.Keys;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * The console in a real browser (issue #17): headless Chromium against a real scheduler node on
 * real Redis, ZooKeeper and RocketMQ, with the demo executor running the jobs. An operator signs in
 * with an ADMIN token, creates a job (a bad zone is named by field, then the preview shows the next
 * fires), watches it fire on the job page, opens the trigger, finds it by the history search across
 * jobs, reads a running trigger's handler log as it is tailed live, looks at executors and the
 * cluster, pauses and resumes scheduling, reads the daily report on the dashboard, exports the jobs
 * and imports a copy (dry-run preview, then applied); a VIEWER sees the pages without edit controls
 * and has a write refused with 403. Every page is saved as a screenshot in target/screenshots/
 * ({@code docs/refresh-images.sh console} puts them into docs/console/).
 */
@RealInfra(
    redis = RedisMode.STANDALONE,
    zookeeper = ZkMode.STANDALONE,
    rocketMq = true,
    postgres = true)
class ConsoleBrowserIT {

  private static final String RUN = UUID.randomUUID().toString().substring(0, 8);
  private static final String ADMIN = "console-admin-" + UUID.randomUUID();
  private static final String VIEWER = "console-viewer-" + UUID.randomUUID();
  private static final String JOB = "console-job-" + RUN;
  private static final String IMPORTED = JOB + "-imported";
  private static final Duration WAIT = Duration.ofSeconds(20);
  private static final Duration FIRE_WAIT = Duration.ofSeconds(60);

  @Test
  void operatorCreatesAJobWatchesItFireAndAViewerCannotEdit(EmbeddedInfrastructure infra)
      throws Exception {
    Map<String, Object> properties = new LinkedHashMap<>(infra.springProperties());
    properties.put("kairos.node.name", "console-it-node");
    properties.put("kairos.zookeeper.root-path", "/kairos-console-it-" + RUN);
    properties.put("kairos.cluster.secret", "console-it-secret");
    properties.put("kairos.console.sample-interval", "1s");
    // The daily report is recomputed with the retention run (hourly by default): often here, so
    // the dashboard shows today's fires.
    properties.put("kairos.sync.retention-interval", "2s");
    properties.put("kairos.api.tokens[0].name", "console-admin");
    properties.put("kairos.api.tokens[0].role", "ADMIN");
    properties.put("kairos.api.tokens[0].sha256", sha256(ADMIN));
    properties.put("kairos.api.tokens[1].name", "console-viewer");
    properties.put("kairos.api.tokens[1].role", "VIEWER");
    properties.put("kairos.api.tokens[1].sha256", sha256(VIEWER));
    String[] args =
        properties.entrySet().stream()
            .map(e -> "--" + e.getKey() + "=" + e.getValue())
            .toArray(String[]::new);
    try (ConfigurableApplicationContext node =
            new SpringApplicationBuilder(KairosNodeApplication.class)
                .run(append(args, "--server.port=0"));
        ConfigurableApplicationContext executor =
            DemoExecutorApplication.start(properties, ChattyJobs.class);
        ConsoleBrowser browser = ConsoleBrowser.start(screenshotFolder())) {
      int port = ((WebServerApplicationContext) node).getWebServer().getPort();
      Console console = new Console(browser, "http://localhost:" + port);
      try {
        journey(console);
      } catch (RuntimeException | AssertionError e) {
        browser.saveFailure(Path.of("target", "console-failure").toAbsolutePath());
        throw e;
      }
    }
  }

  private static void journey(Console console) throws Exception {
    console.signInIsRequiredAndAWrongTokenIsRefused();
    console.signIn(ADMIN, "console-admin (ADMIN)");
    console.createJobWithPreview();
    console.watchItFireAndOpenTheTrigger();
    console.searchTriggers();
    console.editTriggerNowAndCancel();
    console.readAHandlerLogWhileItRuns();
    console.executorsAndCluster();
    console.dashboardCountsTheFires();
    console.exportAndImportJobs();
    console.calendarsObjectivesBackfillsAndWorkflows();
    console.aPostWithoutTheCsrfTokenIsRefused();
    console.signOut();

    console.signIn(VIEWER, "console-viewer (VIEWER)");
    console.viewerSeesNoEditControlsAndIsRefused();
  }

  /** One browser session's steps. Every wait has a deadline and says what it waited for. */
  private static final class Console {

    private final ConsoleBrowser browser;
    private final WebDriver driver;
    private final String base;

    Console(ConsoleBrowser browser, String base) {
      this.browser = browser;
      this.driver = browser.driver();
      this.base = base;
    }

    void signInIsRequiredAndAWrongTokenIsRefused() throws Exception {
      driver.get(base + "/console/jobs");
      waitFor("the sign-in page", ExpectedConditions.urlContains("/console/sign-in"));
      browser.screenshot("01-sign-in");
      type(By.id("token"), "not-a-token");
      driver.findElement(By.id("token")).sendKeys(Keys.ENTER); // the keyboard alone signs in
      waitFor(
          "the sign-in error",
          ExpectedConditions.visibilityOfElementLocated(By.id("sign-in-error")));
      assertThat(driver.getPageSource()).doesNotContain("not-a-token");
    }

    void signIn(String token, String shownAs) {
      driver.get(base + "/console/sign-in");
      type(By.id("token"), token);
      driver.findElement(By.id("sign-in")).click();
      waitFor(
          "signed in as " + shownAs, ExpectedConditions.textToBe(By.id("signed-in-as"), shownAs));
      assertThat(driver.getPageSource()).as("the token never reaches a page").doesNotContain(token);
      org.openqa.selenium.Cookie session = driver.manage().getCookieNamed("JSESSIONID");
      assertThat(session.isHttpOnly()).as("session cookie HttpOnly").isTrue();
      assertThat(session.getSameSite()).as("session cookie SameSite").isEqualTo("Lax");
    }

    void createJobWithPreview() throws Exception {
      driver.findElement(By.id("nav-jobs")).click();
      waitFor("the jobs page", ExpectedConditions.visibilityOfElementLocated(By.id("new-job")));
      browser.screenshot("03-jobs");
      driver.findElement(By.id("new-job")).click();
      waitFor("the job form", ExpectedConditions.visibilityOfElementLocated(By.id("job-form")));
      type(By.id("id"), JOB);
      type(By.id("app-field"), "demo");
      type(By.id("handler"), "demoFast");
      type(By.id("schedule"), "*/2 * * * * *");
      type(By.id("zone"), "Mars/Base");
      driver.findElement(By.id("save-job")).click();
      waitFor(
          "the zone's field error",
          ExpectedConditions.textToBePresentInElementLocated(By.id("err-zone"), "Mars/Base"));
      assertThat(driver.findElement(By.id("zone")).getAttribute("aria-invalid")).isEqualTo("true");
      browser.screenshot("04-job-form-error");

      type(By.id("zone"), "Europe/Berlin");
      driver.findElement(By.id("zone")).sendKeys(Keys.TAB); // change → htmx asks for the preview
      // Clearing the field already asked for a preview (in UTC); wait for the one in Berlin time.
      waitFor(
          "the preview in Europe/Berlin",
          ExpectedConditions.textToBePresentInElementLocated(By.id("preview"), "+01:00"));
      assertThat(driver.findElements(By.cssSelector("#preview-fires li"))).hasSize(5);
      browser.screenshot("05-job-form-preview");
      driver.findElement(By.id("save-job")).click();
      waitFor("the created job", ExpectedConditions.textToBe(By.id("job-id"), JOB));
      assertThat(driver.findElement(By.id("notice")).getText()).contains("created");
      assertThat(driver.findElements(By.cssSelector("#next-fires li"))).hasSize(5);
    }

    void watchItFireAndOpenTheTrigger() throws Exception {
      // The job page polls its trigger table; no reload needed to see the fire.
      new WebDriverWait(driver, FIRE_WAIT)
          .withMessage("a SUCCESS trigger of " + JOB + " on its job page")
          .until(
              ExpectedConditions.presenceOfElementLocated(
                  By.cssSelector("#job-trigger-table .state-SUCCESS")));
      browser.screenshot("06-job");
      WebElement row =
          driver
              .findElement(By.cssSelector("#job-trigger-table .state-SUCCESS"))
              .findElement(By.xpath("ancestor::tr"));
      row.findElement(By.className("trigger-link")).click();
      waitFor("the trigger page", ExpectedConditions.textToBe(By.id("trigger-state"), "SUCCESS"));
      assertThat(driver.findElement(By.id("trigger-title")).getText()).startsWith(JOB + ":");
      assertThat(driver.findElement(By.id("trigger-message")).getText()).contains("fast run of");
      assertThat(driver.findElements(By.cssSelector("#trigger-history tbody tr")).size())
          .as("claimed, dispatched, running, success")
          .isGreaterThanOrEqualTo(3);
      browser.screenshot("07-trigger");
    }

    /**
     * Makes the job slow (demoSlow sleeps 2 s) and API-only, then triggers it twice with params:
     * the job's block strategy (SERIAL_EXECUTION) keeps the second waiting behind the first on the
     * executor, so it is still cancellable when the operator gets to it, started or not.
     */
    void editTriggerNowAndCancel() throws Exception {
      driver.get(base + "/console/jobs/" + JOB);
      driver.findElement(By.id("edit-job")).click();
      waitFor("the edit form", ExpectedConditions.visibilityOfElementLocated(By.id("job-form")));
      type(By.id("handler"), "demoSlow");
      new org.openqa.selenium.support.ui.Select(driver.findElement(By.id("scheduleType")))
          .selectByValue("API");
      driver.findElement(By.id("schedule")).clear();
      driver.findElement(By.id("save-job")).click();
      waitFor(
          "the saved job",
          ExpectedConditions.textToBePresentInElementLocated(By.id("notice"), "saved"));
      assertThat(driver.getPageSource()).contains("demo / demoSlow");

      String second = null;
      for (int i = 0; i < 2; i++) {
        type(By.id("trigger-params"), "{\"run\":" + i + "}");
        driver.findElement(By.id("trigger-job")).click();
        waitFor(
            "the triggered link",
            ExpectedConditions.visibilityOfElementLocated(By.id("triggered-link")));
        second = driver.findElement(By.id("triggered-link")).getText();
      }
      String id = second;
      // An ad-hoc trigger has a record once the leader's next scan claims it.
      new WebDriverWait(driver, WAIT)
          .withMessage("the claimed trigger " + id)
          .until(
              d -> {
                d.get(
                    base
                        + "/console/trigger?id="
                        + java.net.URLEncoder.encode(id, StandardCharsets.UTF_8));
                return !d.findElements(By.id("cancel-trigger")).isEmpty();
              });
      browser.screenshot("07-trigger-running");
      driver.findElement(By.id("cancel-trigger")).click();
      waitFor(
          "the cancel's answer",
          ExpectedConditions.textToBePresentInElementLocated(By.id("notice"), "Cancel of " + id));
      // The page refreshes itself until the trigger is final.
      new WebDriverWait(driver, WAIT)
          .withMessage("trigger " + id + " CANCELLED")
          .until(ExpectedConditions.textToBe(By.id("trigger-state"), "CANCELLED"));
      assertThat(driver.findElements(By.id("cancel-trigger"))).as("no cancel once final").isEmpty();
    }

    /**
     * A job on {@link ChattyJobs} (created and triggered through the API with the admin token): its
     * trigger page shows the handler's lines while the run is still RUNNING, tails the rest as they
     * come (htmx polls with the cursor) and stops at the end of the log.
     */
    void readAHandlerLogWhileItRuns() throws Exception {
      String job = "console-chatty-" + RUN;
      Map<String, Object> body = new LinkedHashMap<>();
      body.put("id", job);
      body.put("app", "demo");
      body.put("handler", ChattyJobs.HANDLER);
      body.put("scheduleType", "API");
      body.put("schedule", "");
      assertThat(
              api(
                      "/api/v1/jobs",
                      new com.fasterxml.jackson.databind.ObjectMapper().writeValueAsString(body))
                  .statusCode())
          .isEqualTo(201);
      var triggered = api("/api/v1/jobs/" + job + "/trigger", null);
      assertThat(triggered.statusCode()).as(triggered.body()).isEqualTo(202);
      String id =
          new com.fasterxml.jackson.databind.ObjectMapper()
              .readTree(triggered.body())
              .path("triggerId")
              .asText();
      String page =
          base + "/console/trigger?id=" + java.net.URLEncoder.encode(id, StandardCharsets.UTF_8);
      new WebDriverWait(driver, FIRE_WAIT)
          .withMessage("the chatty trigger " + id + " running")
          .until(
              d -> {
                d.get(page);
                return !d.findElements(By.cssSelector("#trigger-state.state-RUNNING")).isEmpty();
              });
      // Lines arrive while it runs, without a reload.
      waitFor(
          "a step line tailed in while the run goes",
          ExpectedConditions.textToBePresentInElementLocated(By.id("trigger-log"), "step 3 of"));
      assertThat(driver.findElement(By.id("trigger-state")).getText()).isEqualTo("RUNNING");
      assertThat(driver.findElements(By.id("trigger-log-end"))).as("not ended yet").isEmpty();
      assertThat(driver.findElement(By.id("trigger-log")).getText())
          .as("the handler's own SLF4J line, captured by the starter")
          .contains("chatty run " + id + " starts");
      browser.screenshot("07-trigger-log-live");
      new WebDriverWait(driver, FIRE_WAIT)
          .withMessage("the end of the chatty trigger's log")
          .until(ExpectedConditions.visibilityOfElementLocated(By.id("trigger-log-end")));
      List<WebElement> lines = driver.findElements(By.cssSelector("#trigger-log .log-line"));
      assertThat(lines).hasSize(ChattyJobs.STEPS + 1);
      assertThat(lines.get(lines.size() - 1).getText()).contains("step 20 of 20");
      assertThat(driver.findElements(By.id("trigger-log-poll"))).as("tailing stopped").isEmpty();
      waitFor("the final state", ExpectedConditions.textToBe(By.id("trigger-state"), "SUCCESS"));
    }

    /**
     * Issue #36 in the console: a job whose calendar excludes every day shows each next fire as
     * skipped and its lateness objective; a backfill started from its page runs its past fires; a
     * workflow started from its page ends SUCCEEDED with each node's state on the run's graph.
     */
    void calendarsObjectivesBackfillsAndWorkflows() throws Exception {
      String calendar = "console-every-day-" + RUN;
      assertThat(
              apiPut(
                      "/api/v1/calendars/" + calendar,
                      "{\"weekdays\":[\"MONDAY\",\"TUESDAY\",\"WEDNESDAY\",\"THURSDAY\","
                          + "\"FRIDAY\",\"SATURDAY\",\"SUNDAY\"]}")
                  .statusCode())
          .isEqualTo(200);
      String skipped = JOB + "-cal";
      assertThat(
              api(
                      "/api/v1/jobs",
                      "{\"id\":\""
                          + skipped
                          + "\",\"app\":\"demo\",\"handler\":\"demoFast\",\"scheduleType\":"
                          + "\"CRON\",\"schedule\":\"0 0 * * * *\",\"calendars\":[\""
                          + calendar
                          + "\"],\"latenessObjective\":{\"thresholdMs\":1000}}")
                  .statusCode())
          .isEqualTo(201);
      driver.get(base + "/console/jobs/" + skipped);
      waitFor("the job page", ExpectedConditions.textToBe(By.id("job-id"), skipped));
      List<WebElement> fires = driver.findElements(By.cssSelector("#next-fires li"));
      assertThat(fires).isNotEmpty();
      assertThat(fires).allSatisfy(f -> assertThat(f.getText()).contains("skipped: calendar"));
      assertThat(driver.findElement(By.id("lateness-objective")).getText())
          .isEqualTo("p99 ≤ 1000 ms over 1 h");
      assertThat(driver.findElement(By.id("lateness-verdict")).getText()).isEqualTo("NO_DATA");

      // Its fires of two to four hours ago, run now as a backfill (a calendar does not thin it).
      java.time.Instant to =
          java.time.Instant.now()
              .truncatedTo(java.time.temporal.ChronoUnit.HOURS)
              .minus(Duration.ofHours(2));
      type(By.id("backfill-from"), to.minus(Duration.ofHours(2)).toString());
      type(By.id("backfill-to"), to.toString());
      type(By.id("backfill-concurrency"), "2");
      driver.findElement(By.id("start-backfill")).click();
      new WebDriverWait(driver, FIRE_WAIT)
          .withMessage("the backfill of " + skipped + " SUCCEEDED on its job page")
          .until(
              d -> {
                d.navigate().refresh();
                return d.findElements(By.cssSelector("#backfill-table tbody tr")).stream()
                    .anyMatch(
                        r -> r.getText().contains("SUCCEEDED") && r.getText().contains("3 / 3"));
              });
      browser.screenshot("14-job-calendar-backfill");

      for (String node : List.of("a", "b", "c")) {
        assertThat(
                api(
                        "/api/v1/jobs",
                        "{\"id\":\""
                            + JOB
                            + "-wf-"
                            + node
                            + "\",\"app\":\"demo\",\"handler\":\"demoFast\"}")
                    .statusCode())
            .isEqualTo(201);
      }
      String workflow = "console-wf-" + RUN;
      assertThat(
              api(
                      "/api/v1/workflows",
                      "{\"id\":\""
                          + workflow
                          + "\",\"app\":\"demo\",\"nodes\":["
                          + "{\"name\":\"a\",\"jobId\":\""
                          + JOB
                          + "-wf-a\"},{\"name\":\"b\",\"jobId\":\""
                          + JOB
                          + "-wf-b\"},{\"name\":\"c\",\"jobId\":\""
                          + JOB
                          + "-wf-c\"}],\"edges\":[{\"from\":\"a\",\"to\":\"b\"},"
                          + "{\"from\":\"a\",\"to\":\"c\"}]}")
                  .statusCode())
          .isEqualTo(201);
      driver.findElement(By.id("nav-workflows")).click();
      waitFor("the workflow list", ExpectedConditions.presenceOfElementLocated(By.id("workflows")));
      driver.findElement(By.linkText(workflow)).click();
      waitFor("the workflow page", ExpectedConditions.elementToBeClickable(By.id("start-run")));
      driver.findElement(By.id("start-run")).click();
      new WebDriverWait(driver, FIRE_WAIT)
          .withMessage("the workflow run SUCCEEDED on its page")
          .until(
              d -> {
                d.navigate().refresh();
                List<WebElement> state = d.findElements(By.id("run-state"));
                return !state.isEmpty() && state.get(0).getText().equals("SUCCEEDED");
              });
      for (String node : List.of("a", "b", "c")) {
        assertThat(driver.findElement(By.id("node-" + node)).getText()).contains("SUCCESS");
      }
      browser.screenshot("15-workflow-run");
    }

    private java.net.http.HttpResponse<String> apiPut(String path, String json) throws Exception {
      var request =
          java.net.http.HttpRequest.newBuilder(java.net.URI.create(base + path))
              .header("Authorization", "Bearer " + ADMIN)
              .header("Content-Type", "application/json")
              .PUT(java.net.http.HttpRequest.BodyPublishers.ofString(json))
              .build();
      return java.net.http.HttpClient.newHttpClient()
          .send(request, java.net.http.HttpResponse.BodyHandlers.ofString());
    }

    private java.net.http.HttpResponse<String> api(String path, String json) throws Exception {
      var request =
          java.net.http.HttpRequest.newBuilder(java.net.URI.create(base + path))
              .header("Authorization", "Bearer " + ADMIN)
              .header("Content-Type", "application/json")
              .POST(
                  json == null
                      ? java.net.http.HttpRequest.BodyPublishers.noBody()
                      : java.net.http.HttpRequest.BodyPublishers.ofString(json))
              .build();
      return java.net.http.HttpClient.newHttpClient()
          .send(request, java.net.http.HttpResponse.BodyHandlers.ofString());
    }

    /**
     * Searches the PostgreSQL history across jobs, with the keyboard: the job id typed, the SUCCESS
     * box ticked with the space bar, the form sent with Enter. The history trails Redis by the sync
     * lag, so the search is re-sent until the fire has arrived.
     */
    void searchTriggers() throws Exception {
      driver.findElement(By.id("nav-triggers")).click();
      type(By.id("search-job"), JOB);
      driver.findElement(By.id("state-SUCCESS")).sendKeys(Keys.SPACE);
      assertThat(driver.findElement(By.id("state-SUCCESS")).isSelected()).isTrue();
      new WebDriverWait(driver, FIRE_WAIT)
          .withMessage("the job's SUCCESS triggers in the history")
          .until(
              d -> {
                d.findElement(By.id("search-text")).sendKeys(Keys.ENTER);
                return !d.findElements(By.cssSelector("#trigger-table .trigger-link")).isEmpty();
              });
      List<WebElement> states = driver.findElements(By.cssSelector("#trigger-table .state"));
      assertThat(states).isNotEmpty().allSatisfy(s -> assertThat(s.getText()).isEqualTo("SUCCESS"));
      assertThat(driver.findElement(By.id("search-job")).getAttribute("value")).isEqualTo(JOB);
      assertThat(Long.parseLong(driver.findElement(By.id("search-total")).getText())).isPositive();
      browser.screenshot("08-triggers");
      // A bad filter is named by the API and shown next to the form.
      driver.get(base + "/console/triggers?state=BOGUS");
      waitFor(
          "the field error",
          ExpectedConditions.textToBePresentInElementLocated(By.id("search-errors"), "state"));
    }

    /**
     * Exports the demo app's jobs (the file the console serves), imports a disabled copy of the job
     * under a new id from a file: the dry run previews CREATE and changes nothing, applying it
     * creates the job.
     */
    void exportAndImportJobs() throws Exception {
      driver.findElement(By.id("nav-jobs")).click();
      driver.findElement(By.id("transfer-jobs")).click();
      waitFor(
          "the export form", ExpectedConditions.visibilityOfElementLocated(By.id("export-app")));
      String exported = fetchText("/console/job-export?app=demo");
      ObjectMapper json = new ObjectMapper();
      ObjectNode document = (ObjectNode) json.readTree(exported);
      assertThat(document.path("formatVersion").asInt()).isEqualTo(1);
      ObjectNode job = null;
      for (JsonNode j : document.path("jobs")) {
        if (j.path("id").asText().equals(JOB)) {
          job = (ObjectNode) j.deepCopy();
        }
      }
      assertThat(job).as("the export holds " + JOB + ": " + exported).isNotNull();
      job.put("id", IMPORTED).put("enabled", false);
      document.set("jobs", json.createArrayNode().add(job));
      Path file = Files.createTempFile("kairos-import-", ".json");
      try {
        // A file that is not JSON is named and changes nothing.
        Files.writeString(file, "not json {");
        driver.findElement(By.id("import-file")).sendKeys(file.toAbsolutePath().toString());
        driver.findElement(By.id("import-preview")).click();
        waitFor(
            "the file error",
            ExpectedConditions.textToBePresentInElementLocated(By.id("import-errors"), "file"));
        assertThat(driver.findElements(By.id("import-apply"))).as("nothing to apply").isEmpty();
        Files.writeString(file, json.writeValueAsString(document));
        driver.findElement(By.id("import-file")).sendKeys(file.toAbsolutePath().toString());
        driver.findElement(By.id("import-preview")).click();
        waitFor(
            "the dry run",
            ExpectedConditions.textToBePresentInElementLocated(By.id("import-items"), "CREATE"));
        assertThat(driver.findElement(By.id("import-created")).getText()).isEqualTo("1");
        browser.screenshot("12-import-preview");
        driver.get(base + "/console/jobs/" + IMPORTED);
        assertThat(driver.findElements(By.id("job-id"))).as("a dry run creates nothing").isEmpty();
        driver.findElement(By.id("nav-jobs")).click();
        driver.findElement(By.id("transfer-jobs")).click();
        driver.findElement(By.id("import-apply")).click();
        waitFor(
            "the import",
            ExpectedConditions.textToBePresentInElementLocated(By.id("notice"), "1 created"));
        browser.screenshot("13-import-applied");
      } finally {
        Files.deleteIfExists(file);
      }
      driver.get(base + "/console/jobs/" + IMPORTED);
      waitFor("the imported job", ExpectedConditions.textToBe(By.id("job-id"), IMPORTED));
      assertThat(driver.findElement(By.id("job-enabled")).getText()).isEqualTo("no");
    }

    /** The body of a GET made by the page itself (its session cookie). */
    private String fetchText(String path) {
      return String.valueOf(
          ((JavascriptExecutor) driver)
              .executeAsyncScript(
                  "var done = arguments[arguments.length - 1];"
                      + "fetch(arguments[0]).then(function (r) { return r.text(); })"
                      + "  .then(done).catch(function (e) { done('error ' + e); });",
                  base + path));
    }

    void executorsAndCluster() throws Exception {
      driver.findElement(By.id("nav-executors")).click();
      waitFor(
          "the demo app's slots",
          ExpectedConditions.presenceOfElementLocated(
              By.cssSelector("#app-demo table.slots tbody tr")));
      assertThat(driver.findElement(By.id("app-demo")).getText()).contains("demoFast");
      browser.screenshot("09-executors");

      driver.findElement(By.id("nav-cluster")).click();
      waitFor(
          "the leader",
          ExpectedConditions.textToBePresentInElementLocated(
              By.id("cluster-leader"), "console-it-node"));
      assertThat(Long.parseLong(driver.findElement(By.id("cluster-term")).getText())).isPositive();
      driver.findElement(By.id("pause-cluster")).click();
      waitFor(
          "paused",
          ExpectedConditions.textToBePresentInElementLocated(By.id("pause-state"), "Paused"));
      assertThat(driver.findElement(By.id("pause-state")).getText()).contains("console-admin");
      browser.screenshot("10-cluster-paused");
      driver.findElement(By.id("resume-cluster")).click();
      waitFor("running", ExpectedConditions.textToBe(By.id("pause-state"), "Running"));
      browser.screenshot("10-cluster");
    }

    void dashboardCountsTheFires() throws Exception {
      driver.findElement(By.id("nav-dashboard")).click();
      new WebDriverWait(driver, WAIT)
          .withMessage("the dashboard counting dispatched fires")
          .until(
              d -> {
                String total = d.findElement(By.id("dispatched-total")).getText();
                return !total.equals("—") && Long.parseLong(total.replace(",", "")) > 0;
              });
      waitFor(
          "the fire chart",
          ExpectedConditions.presenceOfElementLocated(By.cssSelector("#chart-fires canvas")));
      assertThat(driver.findElement(By.id("dashboard-apps")).getText()).contains("demo");
      // Handler start − fire time of the triggers that ended, from the lifecycle worker's
      // histogram.
      new WebDriverWait(driver, WAIT)
          .withMessage("the dashboard showing a start lateness")
          .until(d -> d.findElement(By.id("start-lateness-p50")).getText().endsWith(" ms"));
      new WebDriverWait(driver, WAIT)
          .withMessage("the daily report counting today's fires of the demo app")
          .until(
              d -> {
                d.navigate().refresh();
                return !d.findElements(By.id("report-apps")).isEmpty()
                    && d.findElement(By.id("report-apps")).getText().contains("demo");
              });
      browser.screenshot("02-dashboard");
    }

    void aPostWithoutTheCsrfTokenIsRefused() {
      Object status = post("/console/jobs/" + JOB + "/disable", false);
      assertThat(status).as("an ADMIN's POST without the CSRF token").isEqualTo(403L);
      driver.get(base + "/console/jobs/" + JOB);
      assertThat(driver.findElement(By.id("job-enabled")).getText()).isEqualTo("yes");
    }

    void signOut() {
      driver.findElement(By.id("sign-out")).click();
      waitFor("signed out", ExpectedConditions.urlContains("signedOut"));
      driver.get(base + "/console/jobs");
      waitFor("sign-in again", ExpectedConditions.urlContains("/console/sign-in"));
    }

    void viewerSeesNoEditControlsAndIsRefused() throws Exception {
      driver.get(base + "/console/jobs");
      waitFor("the jobs page", ExpectedConditions.visibilityOfElementLocated(By.id("jobs-table")));
      assertThat(driver.findElements(By.id("new-job"))).as("no New job for a VIEWER").isEmpty();
      assertThat(driver.findElements(By.id("batch-apply"))).as("no batch actions").isEmpty();
      driver.get(base + "/console/jobs/" + JOB);
      waitFor("the job page", ExpectedConditions.textToBe(By.id("job-id"), JOB));
      assertThat(driver.findElements(By.id("job-actions"))).as("no actions for a VIEWER").isEmpty();
      assertThat(Long.parseLong(driver.findElement(By.id("stats-total")).getText()))
          .as("the job's last 24 hours from the history")
          .isPositive();
      browser.screenshot("11-viewer-job");
      Object status = post("/console/jobs/" + JOB + "/disable", true);
      assertThat(status).as("a VIEWER's POST with a valid CSRF token").isEqualTo(403L);
      driver.get(base + "/console/cluster");
      assertThat(driver.findElements(By.id("pause-cluster"))).isEmpty();
      driver.get(base + "/console/jobs/" + JOB);
      assertThat(driver.findElement(By.id("job-enabled")).getText())
          .as("the refused disable changed nothing")
          .isEqualTo("yes");
      driver.get(base + "/v3/api-docs");
      assertThat(driver.getPageSource())
          .as("the OpenAPI document describes the API, not the console")
          .contains("/api/v1/jobs")
          .doesNotContain("/console");
    }

    /** A form POST from the page's script; with the CSRF token of the page's sign-out form. */
    private Object post(String path, boolean withCsrf) {
      return ((JavascriptExecutor) driver)
          .executeAsyncScript(
              "var done = arguments[arguments.length - 1];"
                  + "var body = new URLSearchParams();"
                  + "if (arguments[1]) {"
                  + "  body.append('_csrf', document.querySelector('input[name=_csrf]').value); }"
                  + "fetch(arguments[0], {method: 'POST', body: body, redirect: 'manual'})"
                  + "  .then(function (r) { done(r.status); })"
                  + "  .catch(function (e) { done('error ' + e); });",
              base + path,
              withCsrf);
    }

    private void type(By field, String text) {
      WebElement input = driver.findElement(field);
      input.clear();
      input.sendKeys(text);
    }

    private <T> T waitFor(String what, java.util.function.Function<WebDriver, T> condition) {
      return new WebDriverWait(driver, WAIT).withMessage(what).until(condition::apply);
    }
  }

  /**
   * The module's {@code target/screenshots/}: tests write only under target/. {@code
   * docs/refresh-images.sh console} copies them into docs/console/ (docs/development.md).
   */
  private static Path screenshotFolder() {
    return Path.of("target", "screenshots").toAbsolutePath();
  }

  private static String[] append(String[] args, String extra) {
    String[] all = java.util.Arrays.copyOf(args, args.length + 1);
    all[args.length] = extra;
    return all;
  }

  private static String sha256(String token) throws Exception {
    return HexFormat.of()
        .formatHex(
            MessageDigest.getInstance("SHA-256").digest(token.getBytes(StandardCharsets.UTF_8)));
  }
}
