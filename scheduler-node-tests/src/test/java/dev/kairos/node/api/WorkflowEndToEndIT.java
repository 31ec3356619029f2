package dev.kairos.node.api;

import static dev.kairos.node.api.ApiTestNode.ADMIN;
import static dev.kairos.node.api.ApiTestNode.VIEWER;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.kairos.core.model.JobDefinition;
import dev.kairos.core.model.RetryBackoff;
import dev.kairos.core.model.TriggerId;
import dev.kairos.core.model.TriggerState;
import dev.kairos.core.store.JobStore;
import dev.kairos.devinfra.EmbeddedInfrastructure;
import dev.kairos.devinfra.RealInfra;
import dev.kairos.devinfra.RedisMode;
import dev.kairos.devinfra.ZkMode;
import dev.kairos.node.testing.InProcessExecutors;
import dev.kairos.node.testing.InProcessExecutors.Run;
import dev.kairos.workflow.DagStep;
import dev.kairos.workflow.WorkflowDefinition;
import dev.kairos.workflow.WorkflowDriver;
import dev.kairos.workflow.WorkflowRun;
import dev.kairos.workflow.WorkflowStore;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Workflows on the real path: one scheduler node (Redis Cluster, ZooKeeper, RocketMQ) and an
 * in-process executor; every node's trigger goes through the leader's scan, the wheel, the broker
 * and the lifecycle worker like any ad-hoc trigger, and the API is called over HTTP.
 */
@RealInfra(redis = RedisMode.CLUSTER, zookeeper = ZkMode.STANDALONE, rocketMq = true)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class WorkflowEndToEndIT {

  private static final String APP = "wf-" + UUID.randomUUID().toString().substring(0, 6);
  private static final String OTHER_APP = APP + "-other";
  private static final int QUEUES = 2;
  private static final Duration WAIT = Duration.ofSeconds(40);

  private final EmbeddedInfrastructure infra;
  private ApiTestNode node;
  private InProcessExecutors executors;
  private JobStore jobs;

  WorkflowEndToEndIT(EmbeddedInfrastructure infra) {
    this.infra = infra;
  }

  @BeforeAll
  void start() {
    node =
        ApiTestNode.start(
            infra,
            Map.of(
                "kairos.node.name", "wf-node",
                "kairos.zookeeper.root-path", "/kairos-wf-" + UUID.randomUUID(),
                "kairos.cluster.secret", "wf-secret",
                "kairos.rocketmq.default-queue-count", Integer.toString(QUEUES),
                "kairos.fire.broker-cluster", "kairos",
                "kairos.lifecycle.poll-interval", "50ms",
                "kairos.workflow.schedule-tick", "200ms"));
    jobs = node.context().getBean(JobStore.class);
    executors =
        InProcessExecutors.builder(infra, APP)
            .name("wf-executor")
            .slots(QUEUES)
            .handler("emit", ctx -> ctx.log().setMessage("{\"rows\":42}"))
            .handler("ok", ctx -> Thread.sleep(150))
            .handler(
                "flaky",
                ctx -> {
                  if (ctx.attempt() < 3) {
                    throw new IllegalStateException("attempt " + ctx.attempt() + " fails");
                  }
                })
            .handler(
                "fail",
                ctx -> {
                  throw new IllegalStateException("always fails");
                })
            .start();
  }

  @AfterAll
  void stop() {
    if (executors != null) {
      executors.close();
    }
    if (node != null) {
      node.close();
    }
  }

  private static String newId(String prefix) {
    return prefix + "-" + UUID.randomUUID().toString().substring(0, 8);
  }

  private String job(String prefix, String handler) {
    return job(prefix, handler, 0);
  }

  private String job(String prefix, String handler, int retries) {
    String id = newId(prefix);
    jobs.create(
        JobDefinition.builder(id)
            .app(APP)
            .handler(handler)
            .retryCount(retries)
            .retryBackoff(RetryBackoff.fixed(200))
            .build());
    return id;
  }

  private List<Run> runsOf(String jobId) {
    return executors.runsOf(jobId);
  }

  private static String node(String name, String jobId, boolean passResult) {
    return "{\"name\":\""
        + name
        + "\",\"jobId\":\""
        + jobId
        + "\",\"passResult\":"
        + passResult
        + "}";
  }

  private static String edge(String from, String to, String on) {
    return "{\"from\":\""
        + from
        + "\",\"to\":\""
        + to
        + "\""
        + (on == null ? "" : ",\"on\":\"" + on + "\"")
        + "}";
  }

  private static String workflow(
      String id, String app, String schedule, List<String> nodes, List<String> edges) {
    return "{\"id\":\""
        + id
        + "\",\"app\":\""
        + app
        + "\""
        + (schedule == null ? "" : ",\"schedule\":{\"cron\":\"" + schedule + "\",\"zone\":\"UTC\"}")
        + ",\"nodes\":["
        + String.join(",", nodes)
        + "],\"edges\":["
        + String.join(",", edges)
        + "]}";
  }

  private JsonNode ended(String runId) {
    JsonNode[] last = new JsonNode[1];
    await()
        .atMost(WAIT)
        .pollInterval(Duration.ofMillis(100))
        .alias("workflow run " + runId + " ends")
        .until(
            () -> {
              ApiTestNode.Response r = node.get("/api/v1/workflow-runs/" + runId, VIEWER);
              last[0] = r.json();
              return r.status() == 200 && !"RUNNING".equals(r.json().path("state").asText());
            });
    return last[0];
  }

  private String startRun(String workflowId) {
    ApiTestNode.Response started =
        node.post("/api/v1/workflows/" + workflowId + "/runs", null, ADMIN);
    assertThat(started.status()).as(started.toString()).isEqualTo(202);
    return started.json().path("id").asText();
  }

  @Test
  void aDiamondRunsEveryNodeOnceFanningInAndPassesTheResultToTheChildren() {
    String a = job("a", "emit");
    String b = job("b", "ok");
    String c = job("c", "ok");
    String d = job("d", "ok");
    String onFail = job("onfail", "ok");
    String id = newId("diamond");
    ApiTestNode.Response created =
        node.post(
            "/api/v1/workflows",
            workflow(
                id,
                APP,
                null,
                List.of(
                    node("a", a, true),
                    node("b", b, false),
                    node("c", c, false),
                    node("d", d, false),
                    node("cleanup", onFail, false)),
                List.of(
                    edge("a", "b", null),
                    edge("a", "c", null),
                    edge("b", "d", null),
                    edge("c", "d", null),
                    edge("a", "cleanup", "FAILURE"))),
            ADMIN);
    assertThat(created.status()).as(created.toString()).isEqualTo(201);

    long t0 = System.currentTimeMillis();
    String runId = startRun(id);
    JsonNode run = ended(runId);
    System.out.printf(
        "WORKFLOW diamond run ended %s in %d ms%n",
        run.path("state").asText(), System.currentTimeMillis() - t0);

    assertThat(run.path("state").asText()).isEqualTo("SUCCEEDED");
    JsonNode nodes = run.path("nodes");
    for (String n : List.of("a", "b", "c", "d")) {
      assertThat(nodes.path(n).path("state").asText()).as(n).isEqualTo("SUCCESS");
      assertThat(nodes.path(n).path("triggerIds")).as(n).hasSize(1);
    }
    assertThat(nodes.path("cleanup").path("state").asText()).isEqualTo("SKIPPED");
    for (String j : List.of(a, b, c, d)) {
      assertThat(runsOf(j)).as("%s ran once", j).hasSize(1);
    }
    assertThat(runsOf(onFail)).isEmpty();
    assertThat(runsOf(a).get(0).triggerId())
        .isEqualTo(nodes.path("a").path("triggerIds").get(0).asText());
    assertThat(runsOf(d).get(0).triggerId())
        .isEqualTo(nodes.path("d").path("triggerIds").get(0).asText());
    assertThat(runsOf(d).get(0).triggerId())
        .isEqualTo(d + ":" + run.path("fireMs").asLong() + ":w" + runId + "|d");
    Run dRun = runsOf(d).get(0);
    assertThat(dRun.startMs()).isGreaterThanOrEqualTo(runsOf(b).get(0).endMs());
    assertThat(dRun.startMs()).isGreaterThanOrEqualTo(runsOf(c).get(0).endMs());
    assertThat(runsOf(b).get(0).params()).isEqualTo("{\"rows\":42}");
    assertThat(runsOf(c).get(0).params()).isEqualTo("{\"rows\":42}");

    String dTrigger = nodes.path("d").path("triggerIds").get(0).asText();
    ApiTestNode.Response trigger =
        node.get(
            "/api/v1/triggers/"
                + org.springframework.web.util.UriUtils.encodePathSegment(
                    dTrigger, java.nio.charset.StandardCharsets.UTF_8),
            VIEWER);
    assertThat(trigger.status()).as(trigger.toString()).isEqualTo(200);
    assertThat(trigger.json().path("state").asText()).isEqualTo("SUCCESS");
    ConsoleSession console = ConsoleSession.signIn(node, VIEWER);
    ConsoleSession.Page page =
        console.get(
            "/console/workflow-runs/"
                + org.springframework.web.util.UriUtils.encodePathSegment(
                    runId, java.nio.charset.StandardCharsets.UTF_8));
    assertThat(page.status()).as(page.html()).isEqualTo(200);
    assertThat(page.html()).contains("id=\"run-state\">SUCCEEDED<", "id=\"node-d\"", "b (SUCCESS)");
    assertThat(console.get("/console/workflows").html()).contains(id);
    assertThat(console.get("/console/workflows/" + id).html()).contains(runId);
    JsonNode list = node.get("/api/v1/workflows/" + id + "/runs", VIEWER).json();
    assertThat(list.findValuesAsText("id")).contains(runId);
  }

  @Test
  void aFailingNodeIsRetriedFirstAndTheWorkflowAdvancesOnlyAfterItsFinalAttempt() {
    String flaky = job("flaky", "flaky", 3);
    String after = job("after", "ok");
    String fail = job("fail", "fail", 1);
    String cleanup = job("cleanup", "ok");
    String id = newId("retrying");
    assertThat(
            node.post(
                    "/api/v1/workflows",
                    workflow(
                        id,
                        APP,
                        null,
                        List.of(
                            node("flaky", flaky, false),
                            node("after", after, false),
                            node("fail", fail, false),
                            node("cleanup", cleanup, false)),
                        List.of(edge("flaky", "after", null), edge("fail", "cleanup", "FAILURE"))),
                    ADMIN)
                .status())
        .isEqualTo(201);

    String runId = startRun(id);
    JsonNode run = ended(runId);

    assertThat(run.path("state").asText()).as("fail's failure is handled").isEqualTo("SUCCEEDED");
    assertThat(runsOf(flaky)).extracting(Run::attempt).containsExactly(1, 2, 3);
    assertThat(runsOf(after)).hasSize(1);
    assertThat(runsOf(after).get(0).startMs()).isGreaterThanOrEqualTo(runsOf(flaky).get(2).endMs());
    assertThat(run.path("nodes").path("flaky").path("triggerIds")).hasSize(3);
    assertThat(runsOf(fail)).extracting(Run::attempt).containsExactly(1, 2);
    assertThat(run.path("nodes").path("fail").path("state").asText()).isEqualTo("FAILED");
    assertThat(runsOf(cleanup)).hasSize(1);
    assertThat(runsOf(cleanup).get(0).startMs())
        .isGreaterThanOrEqualTo(runsOf(fail).get(1).endMs());
  }

  @Test
  void badDefinitionsAnswer400NamingTheFieldAndWriteNothing() {
    String a = job("bad-a", "ok");
    String foreign = newId("foreign");
    jobs.create(JobDefinition.builder(foreign).app(OTHER_APP).handler("ok").build());
    String id = newId("bad");
    Map<String, String> cases =
        Map.of(
            "edges",
            workflow(
                id,
                APP,
                null,
                List.of(node("x", a, false), node("y", a, false)),
                List.of(edge("x", "y", null), edge("y", "x", null))),
            "nodes[0].jobId",
            workflow(id, APP, null, List.of(node("x", "no-such-job", false)), List.of()),
            "nodes[1].jobId",
            workflow(
                id, APP, null, List.of(node("x", a, false), node("y", foreign, false)), List.of()),
            "edges[0].to",
            workflow(
                id, APP, null, List.of(node("x", a, false)), List.of(edge("x", "ghost", null))),
            "schedule.cron",
            workflow(id, APP, "every now and then", List.of(node("x", a, false)), List.of()));
    cases.forEach(
        (field, body) -> {
          ApiTestNode.Response r = node.post("/api/v1/workflows", body, ADMIN);
          assertThat(r.status()).as(field + ": " + r).isEqualTo(400);
          assertThat(r.contentType()).contains("application/problem+json");
          assertThat(r.json().path("errors").findValuesAsText("field"))
              .as(r.toString())
              .contains(field);
        });
    ApiTestNode.Response cycle = node.post("/api/v1/workflows", cases.get("edges"), ADMIN);
    assertThat(cycle.body()).contains("x -> y -> x");
    assertThat(node.get("/api/v1/workflows/" + id, VIEWER).status()).isEqualTo(404);
    assertThat(
            node.post(
                    "/api/v1/workflows",
                    workflow(newId("v"), APP, null, List.of(node("x", a, false)), List.of()),
                    VIEWER)
                .status())
        .as("a viewer may not write")
        .isEqualTo(403);
  }

  @Test
  void aScheduledWorkflowStartsARunEveryTwoSecondsAndImportOfItsExportChangesNothing() {
    String a = job("tick", "ok");
    String id = newId("every2s");
    assertThat(
            node.post(
                    "/api/v1/workflows",
                    workflow(id, APP, "*/2 * * * * *", List.of(node("only", a, false)), List.of()),
                    ADMIN)
                .status())
        .isEqualTo(201);
    await()
        .atMost(Duration.ofSeconds(10))
        .pollInterval(Duration.ofMillis(200))
        .alias("two scheduled runs succeeded")
        .until(
            () -> {
              List<String> states = new ArrayList<>();
              node.get("/api/v1/workflows/" + id + "/runs", VIEWER)
                  .json()
                  .path("items")
                  .forEach(
                      r -> states.add(r.path("state").asText() + " " + r.path("trigger").asText()));
              return states.stream().filter("SUCCEEDED SCHEDULE"::equals).count() >= 2;
            });
    List<String> ids =
        node.get("/api/v1/workflows/" + id + "/runs", VIEWER).json().findValuesAsText("id");
    assertThat(ids).allMatch(r -> r.matches(java.util.regex.Pattern.quote(id) + "@\\d+000"));

    String export = node.get("/api/v1/workflows/export?app=" + APP, VIEWER).body();
    ApiTestNode.Response again = node.post("/api/v1/workflows/import", export, ADMIN);
    assertThat(again.status()).as(again.toString()).isEqualTo(200);
    List<String> unchanged = new ArrayList<>();
    again.json().path("unchanged").forEach(n -> unchanged.add(n.asText()));
    assertThat(unchanged).contains(id);
    assertThat(again.json().path("created")).isEmpty();
    assertThat(again.json().path("updated")).isEmpty();

    ConsoleSession admin = ConsoleSession.signIn(node, ADMIN);
    assertThat(admin.get("/console/workflows/" + id).html()).contains("id=\"start-run\"");
    ConsoleSession.Page started = admin.post("/console/workflows/" + id + "/runs", Map.of());
    assertThat(started.location()).as(started.toString()).contains("/console/workflow-runs/" + id);

    assertThat(node.call("DELETE", "/api/v1/workflows/" + id, null, ADMIN, Map.of()).status())
        .isEqualTo(204);
  }

  /**
   * The crash window between the run's write and the children's submission: the step that marks b
   * and c TRIGGERED is written, then the node "dies" before submitting them. The lifecycle's replay
   * of a's end submits them (first time), a second replay gets DUPLICATE, and each runs once.
   */
  @Test
  void aReplayedEndAfterACrashBeforeTheSubmissionStartsEachChildExactlyOnce() {
    String a = job("r-a", "ok");
    String b = job("r-b", "ok");
    String c = job("r-c", "ok");
    String id = newId("replay");
    assertThat(
            node.post(
                    "/api/v1/workflows",
                    workflow(
                        id,
                        APP,
                        null,
                        List.of(node("a", a, false), node("b", b, false), node("c", c, false)),
                        List.of(edge("a", "b", null), edge("a", "c", null))),
                    ADMIN)
                .status())
        .isEqualTo(201);
    WorkflowStore store = node.context().getBean(WorkflowStore.class);
    WorkflowDriver driver = node.context().getBean(WorkflowDriver.class);
    MeterRegistry meters = node.context().getBean(MeterRegistry.class);
    WorkflowDefinition definition = store.get(id).orElseThrow();
    long now = System.currentTimeMillis();
    // A run whose root a is marked TRIGGERED; its end is then written as the driver's script does.
    DagStep.Result started =
        DagStep.start(
            WorkflowRun.of(WorkflowRun.apiId(id, now, "crash1"), definition, now, "API", now), now);
    assertThat(store.createRun(started.run())).isTrue();
    TriggerId aTrigger = started.ready().get(0).triggerId();
    WorkflowStore.Versioned read = store.run(started.run().id()).orElseThrow();
    DagStep.Result step = DagStep.nodeEnded(read.run(), "a", aTrigger, true, "done", now);
    assertThat(step.ready()).hasSize(2);
    assertThat(store.updateRun(step.run(), read.rev(), 60_000)).isEqualTo(1L);
    // ... and the node died here: nothing submitted, the stream entry not acknowledged.
    double duplicatesBefore = meters.counter("kairos.workflow.node.duplicates").count();

    driver.chainEnded(aTrigger, TriggerState.SUCCESS, Map.of()); // the replay on another node
    driver.chainEnded(aTrigger, TriggerState.SUCCESS, Map.of()); // and once more

    JsonNode run = ended(started.run().id());
    assertThat(run.path("state").asText()).isEqualTo("SUCCEEDED");
    assertThat(meters.counter("kairos.workflow.node.duplicates").count() - duplicatesBefore)
        .as("the second replay re-submitted b and c as duplicates")
        .isEqualTo(2.0);
    assertThat(runsOf(a)).as("a never ran: its end was simulated").isEmpty();
    assertThat(runsOf(b)).hasSize(1);
    assertThat(runsOf(c)).hasSize(1);
  }

  /**
   * The crash window of an API start: the run is written (its root marked TRIGGERED) and the node
   * dies before submitting the root. The note it wrote first makes the leader's schedule tick
   * submit the root; the run then ends SUCCEEDED with each node run once.
   */
  @Test
  void anApiStartANodeLeftUnfinishedIsFinishedByTheLeader() {
    String a = job("u-a", "ok");
    String b = job("u-b", "ok");
    String id = newId("unfinished");
    assertThat(
            node.post(
                    "/api/v1/workflows",
                    workflow(
                        id,
                        APP,
                        null,
                        List.of(node("a", a, false), node("b", b, false)),
                        List.of(edge("a", "b", null))),
                    ADMIN)
                .status())
        .isEqualTo(201);
    WorkflowStore store = node.context().getBean(WorkflowStore.class);
    WorkflowDefinition definition = store.get(id).orElseThrow();
    long now = System.currentTimeMillis();
    String runId = WorkflowRun.apiId(id, now, "dead1");
    // What startNow writes before the node died: the note (due at once here, instead of after the
    // recovery delay), then the run with its root marked TRIGGERED; no trigger submitted.
    store.markStarting(runId, now - 1);
    assertThat(
            store.createRun(
                DagStep.start(WorkflowRun.of(runId, definition, now, "API", now), now).run()))
        .isTrue();

    JsonNode run = ended(runId);
    assertThat(run.path("state").asText()).isEqualTo("SUCCEEDED");
    assertThat(runsOf(a)).hasSize(1);
    assertThat(runsOf(b)).hasSize(1);
    assertThat(store.unfinishedStarts(Long.MAX_VALUE, 10)).doesNotContain(runId);
  }
}
