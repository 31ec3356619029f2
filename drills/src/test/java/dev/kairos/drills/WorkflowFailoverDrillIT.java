package dev.kairos.drills;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.kairos.core.model.JobDefinition;
import dev.kairos.core.redis.RedisKeys;
import dev.kairos.core.store.JobStore;
import dev.kairos.lifecycle.LifecycleConfig;
import io.lettuce.core.Consumer;
import io.lettuce.core.Limit;
import io.lettuce.core.Range;
import io.lettuce.core.StreamMessage;
import io.lettuce.core.models.stream.PendingMessage;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * Issue #36: a workflow's progress survives the kill of the nodes driving it. A DAG (diamond {@code
 * a -> {b, c} -> d}, then {@code e}) over jobs of the drill executor's app, three runs, two kills
 * with -9:
 *
 * <ol>
 *   <li>the leader, while run 1 is mid-DAG (its root ended and a lifecycle worker applied the step:
 *       its children are triggered) and run 2 has just been started (its root submitted). The
 *       leader scans the ad-hoc triggers, holds some on its wheel, and its lifecycle worker reads
 *       its share of the shard streams, whose {@code TRIGGER_ENDED} entries drive the runs;
 *   <li>then the surviving follower, while run 3 is mid-DAG: the new leader declares it dead and
 *       moves its wheel and inflight entries, and takes over its lifecycle entries.
 * </ol>
 *
 * A lifecycle entry a killed node read and had not acknowledged is taken over by a survivor after
 * {@code kairos.lifecycle.claim-idle}; the default (30 s, plus up to one 10 s claim interval) is
 * kept and budgeted for: the drill shares the {@code plain} family's cluster, and a family of its
 * own ({@link ClusterArgs}) would cost a fresh cluster start, 30–90 s, on every build. Every run
 * ends SUCCEEDED with every node SUCCESS; each node's trigger started exactly once (the executors'
 * start logs), and no other trigger of the runs started. What each kill hit (the runs' triggers on
 * the victim's wheel and inflight, its unacknowledged lifecycle entries) is logged, not asserted:
 * where a kill lands in a run is a race.
 *
 * <p>The drill executor of the {@code plain} family has no handler that runs ~1 s: the nodes run
 * {@link StartRecorder#HANDLER}, which records its start and returns, so a node's duration is the
 * pipeline's (submit, scan, wheel, broker, executor, result, lifecycle), about half a second.
 */
class WorkflowFailoverDrillIT extends DrillBase {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final HttpClient HTTP =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
  private static final Duration HTTP_TIMEOUT = Duration.ofSeconds(10);

  /** The DAG's node names, each running a job of its own; the edges below. */
  private static final List<String> NODES_OF_DAG = List.of("a", "b", "c", "d", "e");

  private static final List<String[]> EDGES =
      List.of(
          new String[] {"a", "b"},
          new String[] {"a", "c"},
          new String[] {"b", "d"},
          new String[] {"c", "d"},
          new String[] {"d", "e"});

  /**
   * Until a run ends (or its root does): a takeover, plus a lifecycle entry the killed leader held
   * unacknowledged (claim-idle plus one claim interval), plus the rest of the DAG on a loaded
   * machine.
   */
  private static final Duration RUN_DEADLINE =
      LifecycleConfig.DEFAULT_CLAIM_IDLE
          .plus(LifecycleConfig.DEFAULT_CLAIM_INTERVAL)
          .plus(Duration.ofSeconds(40));

  @Test
  void workflowRunsSurviveTheKillsOfLeaderAndFollowerAndEveryNodeStartsExactlyOnce()
      throws Exception {
    DrillNode leader = leader(cluster.nodes());
    long term = leader.probe().cluster().term();
    DrillNode api = except(leader).get(0);
    String workflowId = "wfdrill-" + UUID.randomUUID().toString().substring(0, 6);
    Map<String, String> jobOf = createJobs(workflowId);
    post(api, "/api/v1/workflows", definition(workflowId, jobOf), 201);

    // Leader kill: run 1 mid-DAG (root ended, its children triggered), run 2 just started.
    String first = startRun(api, workflowId);
    awaitRootEnded(api, first);
    String second = startRun(api, workflowId);
    Kill leaderKill = kill(leader, api, List.of(first, second));
    DrillNode next = leader(except(leader));
    long newTerm = next.probe().cluster().term();
    JsonNode firstRun = awaitEnd(api, first);
    JsonNode secondRun = awaitEnd(api, second);
    long leaderKillEndedMs = System.currentTimeMillis() - leaderKill.atMs();

    // Follower kill: the surviving follower, with run 3 mid-DAG; the new leader moves its wheel.
    DrillNode follower =
        cluster.nodes().stream().filter(n -> n != leader && n != next).findFirst().orElseThrow();
    String third = startRun(next, workflowId);
    awaitRootEnded(next, third);
    Kill followerKill = kill(follower, next, List.of(third));
    JsonNode thirdRun = awaitEnd(next, third);
    long followerKillEndedMs = System.currentTimeMillis() - followerKill.atMs();

    List<JsonNode> runs = List.of(firstRun, secondRun, thirdRun);
    List<String> expected = new ArrayList<>();
    for (JsonNode run : runs) {
      expected.addAll(triggerIds(run, jobOf));
    }
    StartLedger.Outcome outcome = ledger.observe(expected, cluster.executors());
    Map<String, List<StartLedger.Start>> startsOfRuns = new HashMap<>();
    StartLedger.readLogs(cluster.executors())
        .forEach(
            (id, starts) -> {
              if (List.of(first, second, third).stream()
                  .anyMatch(r -> id.contains(":w" + r + "|"))) {
                startsOfRuns.put(id, starts);
              }
            });
    log.info(
        "DRILL workflow-failover: killed {} (leader, term {}) {}; {} leads term {}; runs {} and"
            + " {} ended {} ms after the kill: {} and {}. Killed {} (follower) {}; run {} ended {}"
            + " ms after the kill: {}. {} node triggers, {} started, {} missed, {} duplicate, {}"
            + " claimed and not logged; the runs' triggers with a logged start: {}",
        leader.name(),
        term,
        leaderKill,
        next.name(),
        newTerm,
        first,
        second,
        leaderKillEndedMs,
        firstRun.path("state").asText(),
        secondRun.path("state").asText(),
        follower.name(),
        followerKill,
        third,
        followerKillEndedMs,
        thirdRun.path("state").asText(),
        expected.size(),
        outcome.firstStartMs().size(),
        outcome.missed().size(),
        outcome.duplicates().size(),
        outcome.claimedNotLogged().size(),
        startsOfRuns.size());

    assertThat(newTerm).as("the new leader's term").isGreaterThan(term);
    for (JsonNode run : runs) {
      String id = run.path("id").asText();
      assertThat(run.path("state").asText()).as("run " + id).isEqualTo("SUCCEEDED");
      assertThat(states(run).values()).as("run " + id + " nodes").containsOnly("SUCCESS");
    }
    assertNoneMissed(outcome.missed(), "workflow node triggers with no start");
    assertThat(outcome.duplicates()).as("workflow node triggers started twice").isEmpty();
    assertThat(outcome.claimedNotLogged())
        .as("start claims without a handler start: no executor was killed")
        .isEmpty();
    assertThat(startsOfRuns.keySet())
        .as("triggers of the runs that started: exactly one per DAG node")
        .containsExactlyInAnyOrderElementsOf(expected);
  }

  /**
   * What a kill left behind of the runs: their node states (as {@code api} answered right after),
   * where the triggers of their TRIGGERED nodes stood in Redis (state, node, slot, ...), the runs'
   * triggers on the victim's wheel and inflight, and the lifecycle stream entries it had read and
   * not acknowledged (all of them, and those of the runs' triggers).
   */
  record Kill(
      long atMs,
      Map<String, Map<String, String>> states,
      Map<String, Integer> open,
      List<String> held,
      int unacknowledged,
      List<String> unacknowledgedOfRuns) {

    @Override
    public String toString() {
      return "with runs at "
          + states
          + ", their open triggers at "
          + open
          + ", holding "
          + held
          + " of their triggers, "
          + unacknowledged
          + " lifecycle entries unacknowledged ("
          + unacknowledgedOfRuns.size()
          + " of the runs: "
          + unacknowledgedOfRuns
          + ")";
    }
  }

  private static Kill kill(DrillNode victim, DrillNode api, List<String> runIds) {
    long at = System.currentTimeMillis();
    victim.process().kill();
    List<String> held =
        held(victim.name()).all().stream()
            .filter(id -> runIds.stream().anyMatch(r -> id.contains(":w" + r + "|")))
            .toList();
    Map<String, Map<String, String>> states = new LinkedHashMap<>();
    List<String> open = new ArrayList<>();
    for (String runId : runIds) {
      JsonNode run = run(api, runId);
      states.put(runId, states(run));
      run.path("nodes")
          .forEach(
              node -> {
                if ("TRIGGERED".equals(node.path("state").asText())) {
                  node.path("triggerIds").forEach(id -> open.add(id.asText()));
                }
              });
    }
    int unacknowledged = 0;
    List<String> ofRuns = new ArrayList<>();
    for (int shard = 0; shard < keys.shards(); shard++) {
      String stream = RedisKeys.events(shard);
      List<PendingMessage> pending =
          redis
              .sync()
              .xpending(
                  stream,
                  Consumer.from(LifecycleConfig.DEFAULT_GROUP, victim.name()),
                  Range.unbounded(),
                  Limit.from(10_000));
      unacknowledged += pending.size();
      for (PendingMessage entry : pending) {
        for (StreamMessage<String, String> message :
            redis.sync().xrange(stream, Range.create(entry.getId(), entry.getId()))) {
          message.getBody().values().stream()
              .filter(v -> runIds.stream().anyMatch(v::contains))
              .findFirst()
              .ifPresent(ofRuns::add);
        }
      }
    }
    return new Kill(at, states, ledger.describe(open), held, unacknowledged, ofRuns);
  }

  private static String startRun(DrillNode api, String workflowId) {
    return post(api, "/api/v1/workflows/" + workflowId + "/runs", "", 202).path("id").asText();
  }

  /** Mid-run: the root ended and a lifecycle worker applied the step (children TRIGGERED). */
  private static void awaitRootEnded(DrillNode api, String runId) {
    Polling.until(
        RUN_DEADLINE,
        "run " + runId + " records its root's end",
        () -> nodeState(run(api, runId), "a"),
        "SUCCESS"::equals,
        "a SUCCESS");
  }

  /** One job per DAG node, of the drill executor's app, on the start-recording handler. */
  private static Map<String, String> createJobs(String workflowId) {
    JobStore store = new JobStore(redis, keys, System::currentTimeMillis);
    Map<String, String> jobOf = new LinkedHashMap<>();
    for (String node : NODES_OF_DAG) {
      String jobId = workflowId + "-" + node;
      store.create(
          JobDefinition.builder(jobId).app(cluster.app()).handler(StartRecorder.HANDLER).build());
      jobOf.put(node, jobId);
    }
    return jobOf;
  }

  private static String definition(String workflowId, Map<String, String> jobOf)
      throws IOException {
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("id", workflowId);
    body.put("app", cluster.app());
    List<Map<String, Object>> nodes = new ArrayList<>();
    jobOf.forEach((name, jobId) -> nodes.add(Map.of("name", name, "jobId", jobId)));
    body.put("nodes", nodes);
    List<Map<String, Object>> edges = new ArrayList<>();
    for (String[] edge : EDGES) {
      edges.add(Map.of("from", edge[0], "to", edge[1]));
    }
    body.put("edges", edges);
    return JSON.writeValueAsString(body);
  }

  /**
   * Every node's one trigger id, as the run lists it, checked against the deterministic form {@code
   * <jobId>:<runFireMs>:w<runId>|<node>} (docs/workflows.md).
   */
  private static List<String> triggerIds(JsonNode run, Map<String, String> jobOf) {
    String runId = run.path("id").asText();
    long fireMs = run.path("fireMs").asLong();
    List<String> ids = new ArrayList<>();
    for (String node : NODES_OF_DAG) {
      List<String> listed = new ArrayList<>();
      run.path("nodes").path(node).path("triggerIds").forEach(id -> listed.add(id.asText()));
      String expected = jobOf.get(node) + ":" + fireMs + ":w" + runId + "|" + node;
      assertThat(listed)
          .as("trigger ids of node " + node + " of run " + runId)
          .containsExactly(expected);
      ids.add(expected);
    }
    return ids;
  }

  private static JsonNode awaitEnd(DrillNode api, String runId) {
    return Polling.until(
        RUN_DEADLINE,
        "run " + runId + " ends",
        () -> run(api, runId),
        run -> !"RUNNING".equals(run.path("state").asText()),
        "a state other than RUNNING");
  }

  private static JsonNode run(DrillNode api, String runId) {
    return get(api, "/api/v1/workflow-runs/" + runId);
  }

  private static String nodeState(JsonNode run, String node) {
    return run.path("nodes").path(node).path("state").asText();
  }

  private static Map<String, String> states(JsonNode run) {
    Map<String, String> states = new LinkedHashMap<>();
    run.path("nodes")
        .fields()
        .forEachRemaining(e -> states.put(e.getKey(), e.getValue().path("state").asText()));
    return states;
  }

  private static JsonNode get(DrillNode node, String path) {
    return send(node, HttpRequest.newBuilder(uri(node, path)).GET(), 200);
  }

  private static JsonNode post(DrillNode node, String path, String body, int status) {
    return send(
        node,
        HttpRequest.newBuilder(uri(node, path))
            .header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString(body)),
        status);
  }

  private static URI uri(DrillNode node, String path) {
    return URI.create("http://127.0.0.1:" + node.port() + path);
  }

  private static JsonNode send(DrillNode node, HttpRequest.Builder request, int status) {
    try {
      HttpResponse<String> response =
          HTTP.send(
              request
                  .header("Authorization", "Bearer " + cluster.adminToken())
                  .header("Accept", "application/json")
                  .timeout(HTTP_TIMEOUT)
                  .build(),
              HttpResponse.BodyHandlers.ofString());
      if (response.statusCode() != status) {
        throw new IllegalStateException(
            node.name()
                + " answered "
                + response.statusCode()
                + " instead of "
                + status
                + ": "
                + response.body());
      }
      return JSON.readTree(response.body());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }
}
