package dev.kairos.node.api;

import static dev.kairos.node.api.ApiTestNode.ADMIN;
import static dev.kairos.node.api.ApiTestNode.VIEWER;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.kairos.devinfra.EmbeddedInfrastructure;
import dev.kairos.devinfra.RealInfra;
import dev.kairos.devinfra.RedisMode;
import dev.kairos.devinfra.ZkMode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import no.nav.security.mock.oauth2.MockOAuth2Server;
import no.nav.security.mock.oauth2.token.DefaultOAuth2TokenCallback;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The console's job form and job page for the job features of issue #18 (description, owner, the
 * job's alarm recipients), driven over HTTP like a browser without JavaScript against a real node:
 * what the form posts is what the API stores, and the job page shows it.
 */
@RealInfra(
    redis = RedisMode.STANDALONE,
    zookeeper = ZkMode.STANDALONE,
    rocketMq = true,
    postgres = true)
class ConsoleJobFeaturesIT {

  private static final String RUN = UUID.randomUUID().toString().substring(0, 8);
  private static ApiTestNode node;

  /** A real OpenID Connect provider (mock-oauth2-server) the node registers as "test-idp". */
  private static MockOAuth2Server idp;

  private static final String IDP = "test-idp";

  @BeforeAll
  static void start(EmbeddedInfrastructure infra) {
    idp = new MockOAuth2Server();
    idp.start(0);
    Map<String, String> overrides = new LinkedHashMap<>();
    String registration = "spring.security.oauth2.client.registration." + IDP + ".";
    overrides.put(registration + "client-id", "kairos-console");
    overrides.put(registration + "client-secret", "console-secret");
    overrides.put(registration + "client-name", "Test IdP");
    overrides.put(registration + "scope", "openid,profile");
    overrides.put(registration + "authorization-grant-type", "authorization_code");
    overrides.put(
        registration + "redirect-uri", "{baseUrl}/console/login/oauth2/code/{registrationId}");
    overrides.put(
        "spring.security.oauth2.client.provider." + IDP + ".issuer-uri",
        idp.issuerUrl(IDP).toString());
    overrides.put("kairos.node.name", "console-features-" + RUN);
    overrides.put("kairos.zookeeper.root-path", "/kairos-console-features-" + RUN);
    overrides.put("kairos.fire.enabled", "false");
    overrides.put("kairos.cluster.leadership.enabled", "false");
    overrides.put("kairos.sync.enabled", "false");
    overrides.put("kairos.lifecycle.enabled", "false");
    node = ApiTestNode.start(infra, overrides);
  }

  @AfterAll
  static void stop() {
    if (node != null) {
      node.close();
    }
    if (idp != null) {
      idp.shutdown();
    }
  }

  /** The job form's fields for a valid cron job. */
  private static Map<String, String> form(String id) {
    Map<String, String> form = new LinkedHashMap<>();
    form.put("id", id);
    form.put("app", "console-" + RUN);
    form.put("handler", "report");
    form.put("scheduleType", "CRON");
    form.put("schedule", "0 0 3 * * *");
    form.put("zone", "UTC");
    form.put("params", "");
    form.put("routing", "FIRST");
    form.put("block", "SERIAL_EXECUTION");
    form.put("timeoutMs", "0");
    form.put("retryCount", "0");
    form.put("misfire", "DO_NOTHING");
    form.put("misfireThresholdMs", "5000");
    form.put("enabled", "true");
    form.put("childJobIds", "");
    return form;
  }

  @Test
  void theFormStoresDescriptionOwnerAndRecipientsAndTheJobPageShowsThem() {
    ConsoleSession admin = ConsoleSession.signIn(node, ADMIN);
    String id = "console-features-" + RUN;
    admin.get("/console/jobs/new");
    Map<String, String> form = form(id);
    form.put("description", "Ledger export.\r\nPage the owner.");
    form.put("owner", "ledger-team");
    form.put("alarmEmails", "ledger@example.com, oncall@example.org");
    form.put("alarmWebhooks", "https://hooks.example.com/a?tags=x,y\r\nhttp://10.0.0.1:8080/b");
    form.put("objectivePercentile", "99.9");
    form.put("objectiveThresholdMs", "1500");

    ConsoleSession.Page created = admin.post("/console/jobs", form);
    assertThat(created.status()).as(created.html()).isEqualTo(302);
    assertThat(created.location()).endsWith("/console/jobs/" + id);

    JsonNode stored = node.get("/api/v1/jobs/" + id, VIEWER).json();
    assertThat(stored.path("description").asText()).isEqualTo("Ledger export.\r\nPage the owner.");
    assertThat(stored.path("owner").asText()).isEqualTo("ledger-team");
    assertThat(stored.path("alarmEmails").toString())
        .isEqualTo("[\"ledger@example.com\",\"oncall@example.org\"]");
    assertThat(stored.path("alarmWebhooks").toString())
        .isEqualTo("[\"https://hooks.example.com/a?tags=x,y\",\"http://10.0.0.1:8080/b\"]");
    assertThat(stored.path("latenessObjective").toString())
        .isEqualTo("{\"percentile\":99.9,\"thresholdMs\":1500,\"windowMs\":3600000}");

    ConsoleSession viewer = ConsoleSession.signIn(node, VIEWER);
    String page = viewer.get("/console/jobs/" + id).html();
    assertThat(page)
        .contains("id=\"job-owner\">ledger-team<")
        .contains("Ledger export.")
        .contains("ledger@example.com, oncall@example.org")
        .contains("https://hooks.example.com/a?tags=x,y");

    // The edit form shows them as they are, one recipient per line, and saves them unchanged.
    String edit = admin.get("/console/jobs/" + id + "/edit").html();
    assertThat(edit)
        .contains("ledger@example.com\noncall@example.org")
        .contains("value=\"ledger-team\"")
        .contains("id=\"objectiveThresholdMs\" name=\"objectiveThresholdMs\" value=\"1500\"");
  }

  @Test
  void theFormStoresCalendarsAndThePreviewAndJobPageMarkTheSkippedFires() {
    String calendar = "console-mornings-" + RUN;
    ApiTestNode.Response written =
        node.call(
            "PUT",
            "/api/v1/calendars/" + calendar,
            ApiTestNode.json(Map.of("dailyRanges", List.of("08:30-09:30"))),
            ADMIN,
            Map.of());
    assertThat(written.status()).as(written.toString()).isEqualTo(200);
    ConsoleSession admin = ConsoleSession.signIn(node, ADMIN);
    String newForm = admin.get("/console/jobs/new").html();
    assertThat(newForm).contains("name=\"calendars\"");
    Map<String, String> schedule = new LinkedHashMap<>();
    schedule.put("scheduleType", "CRON");
    schedule.put("schedule", "0 0 9 * * *");
    schedule.put("zone", "UTC");
    schedule.put("calendars", calendar);
    String preview = admin.post("/console/jobs/preview", schedule).html();
    assertThat(preview).contains("skipped: calendar " + calendar);

    String id = "console-calendars-" + RUN;
    Map<String, String> form = form(id);
    form.put("schedule", "0 0 9 * * *");
    form.put("calendars", " " + calendar + " ");
    ConsoleSession.Page created = admin.post("/console/jobs", form);
    assertThat(created.status()).as(created.html()).isEqualTo(302);
    assertThat(node.get("/api/v1/jobs/" + id, VIEWER).json().path("calendars").toString())
        .isEqualTo("[\"" + calendar + "\"]");
    String page = ConsoleSession.signIn(node, VIEWER).get("/console/jobs/" + id).html();
    assertThat(page)
        .contains("id=\"job-calendars\">" + calendar + "<")
        .contains("skipped: calendar " + calendar);
    assertThat(admin.get("/console/jobs/" + id + "/edit").html())
        .contains("value=\"" + calendar + "\"");
  }

  @Test
  void theJobListPagesByCursorWithNextPreviousAndFirst() {
    String app = "console-pages-" + RUN;
    List<String> ids = new ArrayList<>();
    for (int i = 0; i < 120; i++) {
      String id = String.format("%s-%03d", app, i);
      ids.add(id);
      String job =
          ApiTestNode.json(
              Map.of("id", id, "app", app, "handler", "report", "scheduleType", "API"));
      assertThat(node.post("/api/v1/jobs", job, ADMIN).status()).isEqualTo(201);
    }
    ConsoleSession viewer = ConsoleSession.signIn(node, VIEWER);

    String first = viewer.get("/console/jobs?app=" + app).html();
    assertThat(jobLinks(first)).containsExactlyElementsOf(ids.subList(0, 50));
    assertThat(first).contains("id=\"jobs-total\">120<").doesNotContain("id=\"jobs-previous\"");
    String second = viewer.get(link(first, "jobs-next")).html();
    assertThat(jobLinks(second)).containsExactlyElementsOf(ids.subList(50, 100));
    String third = viewer.get(link(second, "jobs-next")).html();
    assertThat(jobLinks(third)).containsExactlyElementsOf(ids.subList(100, 120));
    assertThat(third).doesNotContain("id=\"jobs-next\"");

    assertThat(jobLinks(viewer.get(link(third, "jobs-previous")).html()))
        .containsExactlyElementsOf(ids.subList(50, 100));
    assertThat(jobLinks(viewer.get(link(second, "jobs-previous")).html()))
        .containsExactlyElementsOf(ids.subList(0, 50));
    assertThat(jobLinks(viewer.get(link(third, "jobs-first")).html()))
        .containsExactlyElementsOf(ids.subList(0, 50));

    // The id prefix narrows the list through the index.
    String prefixed = viewer.get("/console/jobs?idPrefix=" + app + "-11").html();
    assertThat(jobLinks(prefixed)).containsExactlyElementsOf(ids.subList(110, 120));
  }

  private static List<String> jobLinks(String html) {
    List<String> ids = new ArrayList<>();
    Matcher m = Pattern.compile("class=\"job-link\" href=\"/console/jobs/([^\"]+)\"").matcher(html);
    while (m.find()) {
      ids.add(m.group(1));
    }
    return ids;
  }

  private static String link(String html, String id) {
    Matcher m = Pattern.compile("id=\"" + id + "\" href=\"([^\"]+)\"").matcher(html);
    assertThat(m.find()).as("link %s in %s", id, html).isTrue();
    return m.group(1).replace("&amp;", "&");
  }

  @Test
  void aBadAlarmAddressIsShownNextToItsFieldAndNothingIsCreated() {
    ConsoleSession admin = ConsoleSession.signIn(node, ADMIN);
    String id = "console-bad-" + RUN;
    admin.get("/console/jobs/new");
    Map<String, String> form = form(id);
    form.put("alarmEmails", "ops@example.com not-an-address");
    ConsoleSession.Page refused = admin.post("/console/jobs", form);
    assertThat(refused.status()).isEqualTo(400);
    assertThat(refused.html())
        .containsPattern("id=\"err-alarmEmails\">[^<]*not-an-address[^<]*is not an email address");
    assertThat(node.get("/api/v1/jobs/" + id, VIEWER).status()).isEqualTo(404);
  }

  @Test
  void theCopyButtonCopiesTheJobDisabledAndOpensTheCopy() {
    ConsoleSession admin = ConsoleSession.signIn(node, ADMIN);
    String id = "console-copied-" + RUN;
    admin.get("/console/jobs/new");
    Map<String, String> form = form(id);
    form.put("owner", "copy-owner");
    assertThat(admin.post("/console/jobs", form).status()).isEqualTo(302);

    String page = admin.get("/console/jobs/" + id).html();
    assertThat(page).contains("id=\"copy-job\"").contains("name=\"newId\"");
    ConsoleSession.Page copied = admin.post("/console/jobs/" + id + "/copy", Map.of("newId", ""));
    assertThat(copied.status()).isEqualTo(302);
    assertThat(copied.location()).endsWith("/console/jobs/" + id + "-copy");
    String copyPage = admin.get("/console/jobs/" + id + "-copy").html();
    assertThat(copyPage)
        .contains("Copied " + id + " to " + id + "-copy")
        .contains("id=\"job-enabled\">no<")
        .contains("id=\"job-owner\">copy-owner<");

    ConsoleSession.Page named =
        admin.post("/console/jobs/" + id + "/copy", Map.of("newId", id + "-b"));
    assertThat(named.location()).endsWith("/console/jobs/" + id + "-b");
    assertThat(node.get("/api/v1/jobs/" + id + "-b", VIEWER).json().path("enabled").asBoolean())
        .isFalse();

    // A VIEWER sees no copy button; the console refuses its POST like every other write.
    ConsoleSession viewer = ConsoleSession.signIn(node, VIEWER);
    assertThat(viewer.get("/console/jobs/" + id).html()).doesNotContain("id=\"copy-job\"");
    assertThat(viewer.post("/console/jobs/" + id + "/copy", Map.of("newId", id + "-v")).status())
        .isEqualTo(403);
    assertThat(node.get("/api/v1/jobs/" + id + "-v", VIEWER).status()).isEqualTo(404);
  }

  @Test
  void triggerNowTakesAnOptionalSlotAndABadOneIsNamed() {
    ConsoleSession admin = ConsoleSession.signIn(node, ADMIN);
    String id = "console-slot-" + RUN;
    admin.get("/console/jobs/new");
    assertThat(admin.post("/console/jobs", form(id)).status()).isEqualTo(302);
    assertThat(admin.get("/console/jobs/" + id).html()).contains("id=\"trigger-slot\"");

    ConsoleSession.Page triggered =
        admin.post("/console/jobs/" + id + "/trigger", Map.of("params", "", "slot", "2"));
    assertThat(triggered.status()).isEqualTo(302);
    String page = admin.get("/console/jobs/" + id).html();
    java.util.regex.Matcher m =
        java.util.regex.Pattern.compile("Triggered: (\\S+) on slot 2 ").matcher(page);
    assertThat(m.find()).as(page).isTrue();
    // This node never leads, so the trigger waits unclaimed; its request carries the slot.
    dev.kairos.core.redis.RedisKeys keys =
        node.context().getBean(dev.kairos.core.redis.RedisKeys.class);
    dev.kairos.core.redis.KairosRedis redis =
        node.context().getBean(dev.kairos.core.redis.KairosRedis.class);
    assertThat(
            redis
                .sync()
                .hget(
                    dev.kairos.core.redis.RedisKeys.adhocRequest(keys.shardOf(id), m.group(1)),
                    "targetSlot"))
        .isEqualTo("2");

    admin.post("/console/jobs/" + id + "/trigger", Map.of("params", "", "slot", "two"));
    assertThat(admin.get("/console/jobs/" + id).html()).contains("must be a whole number");
    admin.post("/console/jobs/" + id + "/trigger", Map.of("params", "", "slot", "-4"));
    assertThat(admin.get("/console/jobs/" + id).html()).contains("must be an executor slot");
  }

  @Test
  void theExecutorsPageShowsAnAppsDescriptionAndDefaultRouting() {
    String app = "console-" + RUN;
    ConsoleSession admin = ConsoleSession.signIn(node, ADMIN);
    admin.get("/console/jobs/new");
    assertThat(admin.post("/console/jobs", form("console-app-" + RUN)).status()).isEqualTo(302);
    assertThat(
            node.call(
                    "PUT",
                    "/api/v1/apps/" + app,
                    "{\"description\":\"Console app, team console\",\"defaultRouting\":\"LAST\"}",
                    ADMIN,
                    Map.of())
                .status())
        .isEqualTo(200);
    // The job form's "the app's default" routing: the app's LAST.
    Map<String, String> form = form("console-app-default-" + RUN);
    form.put("routing", "");
    assertThat(admin.post("/console/jobs", form).status()).isEqualTo(302);
    assertThat(
            node.get("/api/v1/jobs/console-app-default-" + RUN, VIEWER)
                .json()
                .path("routing")
                .asText())
        .isEqualTo("LAST");
    String page = admin.get("/console/executors").html();
    assertThat(page)
        .contains("id=\"app-description-" + app + "\">Console app, team console<")
        .contains("id=\"app-routing-" + app + "\">LAST<");
  }

  /** The weekdays of the fires a preview fragment lists. */
  private static java.util.Set<java.time.DayOfWeek> previewDays(String html) {
    java.util.regex.Matcher m =
        java.util.regex.Pattern.compile("<time>([^<]+)</time>").matcher(html);
    java.util.Set<java.time.DayOfWeek> days = new java.util.TreeSet<>();
    while (m.find()) {
      days.add(java.time.OffsetDateTime.parse(m.group(1)).getDayOfWeek());
    }
    assertThat(days).as("fires in " + html).isNotEmpty();
    return days;
  }

  @Test
  void theFormChoosesTheCronDialectAndThePreviewReadsTheCronInIt() {
    ConsoleSession admin = ConsoleSession.signIn(node, ADMIN);
    String newForm = admin.get("/console/jobs/new").html();
    assertThat(newForm).contains("name=\"cronDialect\"").contains("value=\"QUARTZ\"");

    Map<String, String> schedule = new LinkedHashMap<>();
    schedule.put("scheduleType", "CRON");
    schedule.put("schedule", "0 0 9 ? * 1");
    schedule.put("zone", "UTC");
    schedule.put("cronDialect", "QUARTZ");
    String quartz = admin.post("/console/jobs/preview", schedule).html();
    assertThat(quartz).contains("Cron read as <span>QUARTZ</span>");
    assertThat(previewDays(quartz)).containsOnly(java.time.DayOfWeek.SUNDAY);
    schedule.put("cronDialect", "KAIROS");
    String kairos = admin.post("/console/jobs/preview", schedule).html();
    assertThat(previewDays(kairos)).containsOnly(java.time.DayOfWeek.MONDAY);
    // Both day fields set is Quartz's error, named by field.
    schedule.put("cronDialect", "QUARTZ");
    schedule.put("schedule", "0 0 9 1 * 1");
    assertThat(admin.post("/console/jobs/preview", schedule).html()).contains("schedule: ");

    String id = "console-quartz-" + RUN;
    Map<String, String> form = form(id);
    form.put("schedule", "0 0 9 ? * 1");
    form.put("cronDialect", "QUARTZ");
    assertThat(admin.post("/console/jobs", form).status()).isEqualTo(302);
    assertThat(node.get("/api/v1/jobs/" + id, VIEWER).json().path("cronDialect").asText())
        .isEqualTo("QUARTZ");
    assertThat(admin.get("/console/jobs/" + id).html()).contains("(QUARTZ cron)");
    assertThat(admin.get("/console/jobs/" + id + "/edit").html())
        .containsPattern("<option value=\"QUARTZ\"[^>]*selected");
    JsonNode fires = node.get("/api/v1/jobs/" + id + "/next-fires?count=3", VIEWER).json();
    assertThat(fires.path("cronDialect").asText()).isEqualTo("QUARTZ");
  }

  @Test
  void anAdminCreatesATokenOnTheTokensPageSeesItOnceAndRevokesIt() {
    ConsoleSession admin = ConsoleSession.signIn(node, ADMIN);
    assertThat(admin.get("/console/tokens").status()).isEqualTo(200);
    Map<String, String> form = new LinkedHashMap<>();
    form.put("name", "console-" + RUN);
    form.put("owner", "team-obs@example.com");
    form.put("role", "VIEWER");
    form.put("expiresOn", "");

    ConsoleSession.Page created = admin.post("/console/tokens", form);
    assertThat(created.status()).as(created.html()).isEqualTo(302);
    String page = admin.get("/console/tokens").html();
    java.util.regex.Matcher issued =
        java.util.regex.Pattern.compile("id=\"issued-token\">(kairos_[A-Za-z0-9_-]+)<")
            .matcher(page);
    assertThat(issued.find()).as(page).isTrue();
    String token = issued.group(1);
    assertThat(admin.get("/console/tokens").html())
        .as("shown once")
        .doesNotContain(token)
        .contains("console-" + RUN);

    // The new token reads through the API and signs in to the console as a viewer.
    assertThat(node.get("/api/v1/jobs", token).status()).isEqualTo(200);
    ConsoleSession viewer = ConsoleSession.signIn(node, token);
    assertThat(viewer.get("/console/jobs").html()).contains("console-" + RUN + " (VIEWER)");
    assertThat(viewer.get("/console/tokens").status()).as("tokens are for admins").isEqualTo(403);

    String id = null;
    for (JsonNode t : node.get("/api/v1/tokens", ADMIN).json().path("items")) {
      if (t.path("name").asText().equals("console-" + RUN)) {
        id = t.path("id").asText();
      }
    }
    assertThat(id).isNotNull();
    ConsoleSession.Page revoked = admin.post("/console/tokens/" + id + "/revoke", Map.of());
    assertThat(revoked.status()).isEqualTo(302);
    assertThat(admin.get("/console/tokens").html()).contains("Token " + id + " revoked.");
    assertThat(node.get("/api/v1/jobs", token).status()).isEqualTo(401);
  }

  @Test
  void aBadTokenFormIsAnsweredWithTheProblemAndCreatesNothing() {
    ConsoleSession admin = ConsoleSession.signIn(node, ADMIN);
    admin.get("/console/tokens");
    int before = node.get("/api/v1/tokens", ADMIN).json().path("items").size();
    Map<String, String> form = new LinkedHashMap<>();
    form.put("name", "bad name");
    form.put("owner", "x");
    form.put("role", "VIEWER");
    form.put("expiresOn", "2020-01-01");

    admin.post("/console/tokens", form);

    assertThat(admin.get("/console/tokens").html())
        .contains("validation-failed")
        .contains("name: must be")
        .contains("expiresAt: must be in the future");
    assertThat(node.get("/api/v1/tokens", ADMIN).json().path("items").size()).isEqualTo(before);
  }

  @Test
  void anOperatorSignedInSeesAndEditsOnlyItsAppsJobs() {
    String mine = "console-mine-" + RUN;
    String theirs = "console-theirs-" + RUN;
    ConsoleSession admin = ConsoleSession.signIn(node, ADMIN);
    admin.get("/console/jobs/new");
    Map<String, String> own = form(mine);
    own.put("app", "team-a-" + RUN);
    assertThat(admin.post("/console/jobs", own).status()).isEqualTo(302);
    admin.get("/console/jobs/new");
    Map<String, String> other = form(theirs);
    other.put("app", "team-b-" + RUN);
    assertThat(admin.post("/console/jobs", other).status()).isEqualTo(302);
    Map<String, Object> token = new LinkedHashMap<>();
    token.put("name", "team-a-" + RUN);
    token.put("owner", "team-a@example.com");
    token.put("role", "OPERATOR");
    token.put("apps", java.util.List.of("team-a-" + RUN));
    String operator =
        node.post("/api/v1/tokens", ApiTestNode.json(token), ADMIN).json().path("token").asText();

    ConsoleSession session = ConsoleSession.signIn(node, operator);

    String list = session.get("/console/jobs?q=" + RUN).html();
    assertThat(list).contains(mine).doesNotContain(theirs);
    assertThat(session.get("/console/jobs/" + theirs).status()).isEqualTo(404);
    assertThat(session.get("/console/jobs/" + mine).html()).contains("(OPERATOR)");
    session.get("/console/jobs/" + mine);
    ConsoleSession.Page disabled = session.post("/console/jobs/" + mine + "/disable", Map.of());
    assertThat(disabled.status()).as(disabled.html()).isEqualTo(302);
    assertThat(node.get("/api/v1/jobs/" + mine, ADMIN).json().path("enabled").asBoolean())
        .isFalse();
    assertThat(session.get("/console/cluster").html()).doesNotContain("id=\"pause-cluster\"");
    assertThat(session.get("/console/tokens").status()).isEqualTo(403);
  }

  @Test
  void aUserSignsInWithNameAndPasswordAsASessionTokenThatSigningOutEnds() {
    String name = "user-" + RUN;
    Map<String, Object> user = new LinkedHashMap<>();
    user.put("username", name);
    user.put("password", "a long passphrase");
    user.put("role", "OPERATOR");
    user.put("apps", java.util.List.of("team-a-" + RUN));
    assertThat(node.post("/api/v1/users", ApiTestNode.json(user), ADMIN).status()).isEqualTo(201);

    assertThat(ConsoleSession.attempt(node, name, "a wrong passphrase").location())
        .endsWith("/console/sign-in?error");
    ConsoleSession session = ConsoleSession.signInAs(node, name, "a long passphrase");

    assertThat(session.get("/console/jobs").html()).contains(name + " (OPERATOR)");
    assertThat(sessionTokensOf(name)).as("the session is a token an admin sees").hasSize(1);

    ConsoleSession.Page out = session.post("/console/sign-out", Map.of());
    assertThat(out.location()).endsWith("/console/sign-in?signedOut");
    assertThat(sessionTokensOf(name)).as("signing out revoked it").isEmpty();

    // A deleted user cannot sign in again, and a session open then ends with the deletion.
    ConsoleSession again = ConsoleSession.signInAs(node, name, "a long passphrase");
    assertThat(node.call("DELETE", "/api/v1/users/" + name, null, ADMIN, Map.of()).status())
        .isEqualTo(204);
    assertThat(sessionTokensOf(name)).isEmpty();
    assertThat(again.get("/console/jobs").html())
        .as("the API refuses the ended session's token")
        .contains("401 unauthenticated");
    assertThat(ConsoleSession.attempt(node, name, "a long passphrase").location())
        .endsWith("/console/sign-in?error");
  }

  private static java.util.List<JsonNode> sessionTokensOf(String name) {
    java.util.List<JsonNode> found = new java.util.ArrayList<>();
    for (JsonNode t : node.get("/api/v1/tokens", ADMIN).json().path("items")) {
      if (t.path("name").asText().equals(name)
          && t.path("createdBy").asText().equals("console sign-in")) {
        found.add(t);
      }
    }
    return found;
  }

  @Test
  void aPersonSignsInThroughTheIdentityProviderWithTheRoleAndAppsTheirGroupsGive() {
    idp.enqueueCallback(
        new DefaultOAuth2TokenCallback(
            IDP,
            "subject-ann",
            "JWT",
            java.util.List.of("kairos-console"),
            Map.of(
                "preferred_username",
                "ann-" + RUN,
                "groups",
                java.util.List.of("staff", "kairos:operator:team-a-" + RUN)),
            3600));

    ConsoleSession session = ConsoleSession.signInThrough(node, IDP);

    assertThat(session.get("/console/jobs").html()).contains("ann-" + RUN + " (OPERATOR)");
    JsonNode token = sessionTokensOf("ann-" + RUN).get(0);
    assertThat(token.path("role").asText()).isEqualTo("OPERATOR");
    assertThat(token.path("apps").toString()).isEqualTo("[\"team-a-" + RUN + "\"]");
    assertThat(session.get("/console/tokens").status()).isEqualTo(403);
    session.post("/console/sign-out", Map.of());
    assertThat(sessionTokensOf("ann-" + RUN)).isEmpty();
  }

  @Test
  void aPersonWithoutAKairosGroupIsNotSignedIn() {
    idp.enqueueCallback(
        new DefaultOAuth2TokenCallback(
            IDP,
            "subject-bob",
            "JWT",
            java.util.List.of("kairos-console"),
            Map.of("preferred_username", "bob-" + RUN, "groups", java.util.List.of("staff")),
            3600));

    ConsoleSession.Page landed = ConsoleSession.attemptThrough(node, IDP);

    assertThat(landed.location()).endsWith("/console/sign-in?error");
    assertThat(sessionTokensOf("bob-" + RUN)).isEmpty();
  }
}
