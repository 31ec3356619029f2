package dev.kairos.demo;

import dev.kairos.core.model.JobDefinition;
import dev.kairos.core.store.JobStore;
import dev.kairos.demo.executor.DemoExecutorApplication;
import dev.kairos.devinfra.EmbeddedInfrastructure;
import dev.kairos.devinfra.RedisMode;
import dev.kairos.devinfra.RocketMqLogging;
import dev.kairos.devinfra.ZkMode;
import dev.kairos.mq.executor.KairosExecutor;
import dev.kairos.mq.spring.KairosExecutorLifecycle;
import dev.kairos.node.KairosNodeApplication;
import dev.kairos.security.Role;
import dev.kairos.security.user.LocalUserStore;
import dev.kairos.security.user.UserRequest;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicBoolean;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.env.CommandLinePropertySource;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.MutablePropertySources;

/**
 * Real infrastructure on loopback, one scheduler node and the demo executor, in this JVM, with the
 * demo jobs created. {@link DemoMain} runs it until Ctrl-C; tests start and close it directly.
 */
public final class KairosDemo implements AutoCloseable {

  /** The demo's admin API token (README "Run"); demo only, it is published. */
  public static final String DEMO_ADMIN_TOKEN = "kairos-demo-admin";

  /** {@code printf %s kairos-demo-admin | sha256sum} */
  static final String DEMO_ADMIN_TOKEN_SHA256 =
      "590288882665563635510740888d2579d97f8e7d829fd4f29b64824d7b72450a";

  /** The demo's read-only API token (README "The web console"); demo only, it is published. */
  public static final String DEMO_VIEWER_TOKEN = "kairos-demo-viewer";

  /** {@code printf %s kairos-demo-viewer | sha256sum} */
  static final String DEMO_VIEWER_TOKEN_SHA256 =
      "b9cd5d645586fbe52da77efe8ce7d818fcf0178b2879648c6169f9f677c74ae0";

  /**
   * The demo's OPERATOR token of the app {@code demo} (README "The web console"): it changes the
   * demo app's jobs and nothing cluster-wide; demo only, it is published.
   */
  public static final String DEMO_OPERATOR_TOKEN = "kairos-demo-operator";

  /** {@code printf %s kairos-demo-operator | sha256sum} */
  static final String DEMO_OPERATOR_TOKEN_SHA256 =
      "e5dcaba0c9712343cbf01480160301f4f5acf6d109361ab199bf29fb0afb4093";

  /**
   * The demo's console user (README "The web console"): a person who signs in with a name and a
   * password, OPERATOR of the app {@code demo}; demo only, the password is published.
   */
  public static final String DEMO_USER = "demo-user";

  public static final String DEMO_USER_PASSWORD = "kairos-demo-password";

  /** The demo node's cluster secret: it has no other node to talk to, and it is published. */
  static final String DEMO_CLUSTER_SECRET = "kairos-demo-cluster-secret";

  /** Name of the property source that points the node at the embedded components. */
  static final String INFRA_PROPERTY_SOURCE = "kairosDemoInfrastructure";

  private final EmbeddedInfrastructure infra;
  private final ConfigurableApplicationContext context;
  private final ConfigurableApplicationContext executor;
  private final DemoReport report;
  private final AtomicBoolean closed = new AtomicBoolean();

  private KairosDemo(
      EmbeddedInfrastructure infra,
      ConfigurableApplicationContext context,
      ConfigurableApplicationContext executor,
      DemoReport report) {
    this.infra = infra;
    this.context = context;
    this.executor = executor;
    this.report = report;
  }

  /**
   * Starts Redis, ZooKeeper, RocketMQ and PostgreSQL under {@code workDir}, then the node with
   * {@code args} as its command line (e.g. {@code --server.port=0}). If the node fails to start,
   * the infrastructure is closed before the exception propagates.
   */
  public static KairosDemo start(Path workDir, String... args) {
    Objects.requireNonNull(workDir, "workDir");
    EmbeddedInfrastructure infra =
        EmbeddedInfrastructure.builder()
            .workDir(workDir)
            .redis(RedisMode.STANDALONE)
            .zookeeper(ZkMode.STANDALONE)
            .rocketMq(true)
            .postgres(true)
            .start();
    try {
      Map<String, Object> properties = new LinkedHashMap<>(infra.springProperties());
      // The demo is one node with a fixed name, so its wheel keys survive a restart of the demo.
      properties.put("kairos.node.name", "demo-node");
      // A demo-only admin token, so README's curl examples work against the Run command. Never
      // configure a published token on a real node.
      properties.put("kairos.api.tokens[0].name", "demo");
      properties.put("kairos.api.tokens[0].role", "ADMIN");
      properties.put("kairos.api.tokens[0].sha256", DEMO_ADMIN_TOKEN_SHA256);
      // And a demo-only VIEWER token (README "The web console"): reads everything, writes nothing.
      properties.put("kairos.api.tokens[1].name", "demo-viewer");
      properties.put("kairos.api.tokens[1].role", "VIEWER");
      properties.put("kairos.api.tokens[1].sha256", DEMO_VIEWER_TOKEN_SHA256);
      // And a demo-only OPERATOR of the app demo: a team's token on a shared cluster.
      properties.put("kairos.api.tokens[2].name", "demo-operator");
      properties.put("kairos.api.tokens[2].role", "OPERATOR");
      properties.put("kairos.api.tokens[2].apps[0]", DemoJobCatalog.APP);
      properties.put("kairos.api.tokens[2].sha256", DEMO_OPERATOR_TOKEN_SHA256);
      // A one-node cluster needs no shared secret, but a node without one warns (rightly, on a
      // real cluster) at every start; the demo sets its own, published like its tokens.
      properties.put("kairos.cluster.secret", DEMO_CLUSTER_SECRET);
      // The demo serves the OpenAPI document and Swagger UI on purpose (README "Manage jobs over
      // HTTP"); saying so keeps springdoc from advising to turn them off in production.
      properties.put("springdoc.api-docs.enabled", "true");
      properties.put("springdoc.swagger-ui.enabled", "true");
      ConfigurableApplicationContext context =
          new SpringApplicationBuilder(KairosNodeApplication.class)
              // The demo's logback.xml covers the time before Spring; the node's own config after.
              .properties("logging.config=classpath:logback-spring.xml")
              // Whoever owns the demo closes it (DemoMain's hook: node first, then components);
              // Boot's own hook would race with that order.
              .registerShutdownHook(false)
              .initializers(
                  ctx -> addInfrastructure(ctx.getEnvironment().getPropertySources(), properties))
              .run(args);
      try {
        return withExecutorAndJobs(infra, context, properties);
      } catch (RuntimeException | Error e) {
        context.close();
        throw e;
      }
    } catch (RuntimeException | Error e) {
      infra.close();
      throw e;
    }
  }

  /**
   * The executor starts after the node, which initialises the cluster metadata (shard count) the
   * executor's start claim needs.
   */
  private static KairosDemo withExecutorAndJobs(
      EmbeddedInfrastructure infra,
      ConfigurableApplicationContext node,
      Map<String, Object> properties) {
    ConfigurableApplicationContext executor = DemoExecutorApplication.start(properties);
    try {
      long from = System.currentTimeMillis();
      List<JobDefinition> jobs = DemoJobCatalog.createAll(node.getBean(JobStore.class));
      // Kept across restarts of the demo (its Redis survives them): created once.
      node.getBean(LocalUserStore.class)
          .create(
              new UserRequest(
                  DEMO_USER, DEMO_USER_PASSWORD, Role.OPERATOR, List.of(DemoJobCatalog.APP)),
              "demo");
      KairosExecutor runtime = executor.getBean(KairosExecutorLifecycle.class).executor();
      DemoReport report =
          new DemoReport(
              jobs,
              from,
              DemoExecutorApplication.starts(executor),
              runtime::stats,
              System::currentTimeMillis);
      return new KairosDemo(infra, node, executor, report);
    } catch (RuntimeException | Error e) {
      executor.close();
      throw e;
    }
  }

  /**
   * The embedded components' addresses must beat the node's application.yml (which points at the
   * default ports), while the command line still wins, so the source goes right after it.
   */
  private static void addInfrastructure(
      MutablePropertySources sources, Map<String, Object> properties) {
    MapPropertySource infra = new MapPropertySource(INFRA_PROPERTY_SOURCE, properties);
    if (sources.contains(CommandLinePropertySource.COMMAND_LINE_PROPERTY_SOURCE_NAME)) {
      sources.addAfter(CommandLinePropertySource.COMMAND_LINE_PROPERTY_SOURCE_NAME, infra);
    } else {
      sources.addFirst(infra);
    }
  }

  public ConfigurableApplicationContext context() {
    return context;
  }

  DemoReport report() {
    return report;
  }

  /** The HTTP port the node listens on (resolved when {@code --server.port=0}). */
  public int port() {
    return ((WebServerApplicationContext) context).getWebServer().getPort();
  }

  public String healthUrl() {
    return "http://localhost:" + port() + "/actuator/health";
  }

  /**
   * Closes the executor first (it finishes or interrupts running handlers and releases its slot),
   * then the node (it holds connections to the components), then the components.
   */
  @Override
  public void close() {
    if (!closed.compareAndSet(false, true)) {
      return;
    }
    RocketMqLogging.muteForShutdown();
    try {
      executor.close();
    } finally {
      try {
        context.close();
      } finally {
        infra.close();
      }
    }
  }
}
