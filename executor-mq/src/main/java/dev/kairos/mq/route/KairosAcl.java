package dev.kairos.mq.route;

import dev.kairos.protocol.message.TopicNames;
import java.util.List;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * The least RocketMQ 5 ACL 2.0 rights each Kairos client needs, as {@code mqadmin createAcl} grants
 * ({@code -r <resources> -a <actions> -d Allow}); {@code deploy/rocketmq/kairos-acl.sh} issues
 * exactly these (KairosAclTest keeps the two in step) and RocketMqAclIT proves them against a
 * broker with ACL on.
 *
 * <p>What the broker asks for (RocketMQ 5.3): a send needs {@code Pub} on the topic; a pull, an
 * offset query or commit and a heartbeat need {@code Sub} on the topic and on the consumer group;
 * creating or updating a topic needs {@code Create} on it. The NameServer checks nothing, so route
 * and cluster lookups need no right.
 */
public final class KairosAcl {

  /** The consumer group of every scheduler node's result consumer. */
  public static final String NODE_RESULTS_GROUP = "kairos_results_nodes";

  /** An app whose handler topics all start with {@code kairos_<app>_} and nothing else does. */
  private static final Pattern PLAIN_APP = Pattern.compile("[a-zA-Z0-9-]{1,53}");

  /**
   * Some actions on some resources, as one {@code mqadmin createAcl} call grants them.
   *
   * @param resources e.g. {@code Topic:kairos_*} (a trailing {@code *} is a prefix) or {@code
   *     Group:kairos_results_nodes}
   * @param actions e.g. {@code Pub}, {@code Sub}, {@code Create}
   */
  public record Grant(List<String> resources, List<String> actions) {
    public Grant {
      resources = List.copyOf(resources);
      actions = List.copyOf(actions);
    }
  }

  private KairosAcl() {}

  /**
   * The scheduler nodes' user: sends triggers to every handler topic and creates them ({@code
   * Pub,Create} on {@code Topic:kairos_*}, which covers the results topic the nodes create too),
   * and consumes the results topic in the nodes' group ({@code Sub}). It cannot consume a handler
   * topic.
   */
  public static List<Grant> node() {
    return List.of(
        new Grant(List.of("Topic:kairos_*"), List.of("Pub", "Create")),
        new Grant(
            List.of("Topic:" + TopicNames.RESULTS, "Group:" + NODE_RESULTS_GROUP), List.of("Sub")));
  }

  /**
   * The user of the executors of one app: consumes and creates its own handler topics ({@code
   * Sub,Create} on {@code Topic:kairos_<app>_*}) in its own group only, and publishes results. It
   * cannot send a trigger (no {@code Pub} on any handler topic), read or create another app's
   * topics, consume in another group, or create or reconfigure the results topic (the nodes create
   * it; an executor's start finds it and leaves it alone).
   *
   * @param app a name of {@code [a-zA-Z0-9-]}, at most 53 characters: for such a name the prefix
   *     {@code kairos_<app>_} matches exactly the app's handler topics ({@link TopicNames})
   * @throws IllegalArgumentException for any other name: grant its topics one by one, named by
   *     {@link TopicNames#handlerTopic}
   */
  public static List<Grant> executor(String app) {
    Objects.requireNonNull(app, "app");
    if (!PLAIN_APP.matcher(app).matches()) {
      throw new IllegalArgumentException(
          "app '"
              + app
              + "' is not [a-zA-Z0-9-]{1,53}: no topic prefix matches exactly its topics"
              + " (TopicNames); grant them one by one");
    }
    return List.of(
        new Grant(List.of("Topic:kairos_" + app + "_*"), List.of("Sub", "Create")),
        new Grant(List.of("Group:kairos_exec_" + app), List.of("Sub")),
        new Grant(List.of("Topic:" + TopicNames.RESULTS), List.of("Pub")));
  }
}
