package dev.kairos.migrate.xxljob.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.kairos.core.error.KairosException;
import dev.kairos.migrate.xxljob.XxlJobMigration;
import dev.kairos.migrate.xxljob.kairos.KairosImportClient;
import dev.kairos.migrate.xxljob.mapping.MappingOptions;
import dev.kairos.migrate.xxljob.report.MigrationReport;
import dev.kairos.migrate.xxljob.report.ReportText;
import dev.kairos.migrate.xxljob.source.JdbcXxlJobReader;
import dev.kairos.migrate.xxljob.source.SqlDumpReader;
import dev.kairos.migrate.xxljob.source.XxlJobTables;
import java.io.IOException;
import java.io.PrintStream;
import java.io.Reader;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.function.UnaryOperator;

/**
 * {@code java -jar kairos-migrate-xxljob-<version>-cli.jar}: reads an xxl-job database (a dump file
 * or JDBC) and prints the report. Dry run by default; with {@code --kairos-url} Kairos checks the
 * jobs too, and only {@code --apply} writes them. Secrets come from environment variables named on
 * the command line ({@code --password-env}, {@code --token-env}), never from the arguments.
 */
public final class MigrateXxlJobCli {

  static final String USAGE =
      """
      usage: java -jar kairos-migrate-xxljob-cli.jar
               (--dump=FILE | --jdbc-url=URL --user=USER [--password-env=VAR])
               [--kairos-url=http://host:8080 --token-env=VAR] [--apply]
               [--zone=Asia/Shanghai] [--id-prefix=xxl-] [--json]

        --dump          a mysqldump (or SQL script) holding xxl_job_group and xxl_job_info
        --jdbc-url      jdbc:mariadb://host:3306/xxl_job or jdbc:mysql://host:3306/xxl_job
        --user          database user; --password-env names the variable holding its password
        --kairos-url    a Kairos node; --token-env names the variable holding an ADMIN token.
                        Without it the report is checked offline (core's validator)
        --apply         write the importable jobs (after Kairos' dry run of all of them passes)
        --zone          time zone of the xxl-job admin server: crons are evaluated in it (UTC)
        --id-prefix     Kairos job id = prefix + xxl-job id (xxl-)
        --json          print the report as JSON instead of text

      exit status: 0 done, 1 bad arguments, 2 the source or Kairos failed
      """;

  private static final Set<String> OPTIONS =
      Set.of(
          "dump",
          "jdbc-url",
          "user",
          "password-env",
          "kairos-url",
          "token-env",
          "apply",
          "zone",
          "id-prefix",
          "json",
          "help");

  private MigrateXxlJobCli() {}

  public static void main(String[] args) {
    System.exit(run(args, System.out, System.err, System::getenv, System.currentTimeMillis()));
  }

  /** The whole command, with its outputs and environment injected; returns the exit status. */
  static int run(
      String[] args, PrintStream out, PrintStream err, UnaryOperator<String> env, long nowMs) {
    Map<String, String> options;
    try {
      options = parse(args);
    } catch (IllegalArgumentException e) {
      err.println(e.getMessage());
      err.print(USAGE);
      return 1;
    }
    if (options.containsKey("help")) {
      out.print(USAGE);
      return 0;
    }
    String problem = argumentProblem(options, env);
    if (problem != null) {
      err.println(problem);
      err.print(USAGE);
      return 1;
    }
    try {
      XxlJobTables tables = read(options, env);
      MappingOptions mapping =
          new MappingOptions(options.get("id-prefix"), options.get("zone"), nowMs);
      XxlJobMigration.Plan plan = XxlJobMigration.plan(tables, mapping);
      MigrationReport report = plan.report();
      if (options.containsKey("kairos-url")) {
        KairosImportClient kairos =
            new KairosImportClient(
                URI.create(options.get("kairos-url")),
                env.apply(options.get("token-env")),
                KairosImportClient.DEFAULT_BATCH_SIZE);
        report =
            options.containsKey("apply")
                ? XxlJobMigration.apply(plan, kairos)
                : XxlJobMigration.check(plan, kairos);
      }
      out.print(options.containsKey("json") ? json(report) : ReportText.render(report));
      return 0;
    } catch (KairosException | IOException e) {
      err.println("xxl-job import failed: " + e.getMessage());
      return 2;
    }
  }

  private static XxlJobTables read(Map<String, String> options, UnaryOperator<String> env)
      throws IOException {
    if (options.containsKey("dump")) {
      Path dump = Path.of(options.get("dump"));
      try (Reader reader = Files.newBufferedReader(dump, StandardCharsets.UTF_8)) {
        return SqlDumpReader.read(reader, "dump " + dump);
      }
    }
    String passwordVar = options.get("password-env");
    return JdbcXxlJobReader.read(
        options.get("jdbc-url"),
        options.get("user"),
        passwordVar == null ? null : env.apply(passwordVar));
  }

  static Map<String, String> parse(String[] args) {
    Map<String, String> options = new HashMap<>();
    for (String arg : args) {
      if (!arg.startsWith("--")) {
        throw new IllegalArgumentException("unexpected argument '" + arg + "'");
      }
      int eq = arg.indexOf('=');
      String name = eq < 0 ? arg.substring(2) : arg.substring(2, eq);
      if (!OPTIONS.contains(name)) {
        throw new IllegalArgumentException("unknown option --" + name);
      }
      options.put(name, eq < 0 ? "" : arg.substring(eq + 1));
    }
    return options;
  }

  private static String argumentProblem(Map<String, String> o, UnaryOperator<String> env) {
    boolean dump = o.containsKey("dump");
    boolean jdbc = o.containsKey("jdbc-url");
    if (dump == jdbc) {
      return "give exactly one source: --dump=FILE or --jdbc-url=URL";
    }
    if (jdbc && !o.containsKey("user")) {
      return "--jdbc-url needs --user";
    }
    String passwordVar = o.get("password-env");
    if (passwordVar != null && env.apply(passwordVar) == null) {
      return "--password-env=" + passwordVar + ": that environment variable is not set";
    }
    if (o.containsKey("apply") && !o.containsKey("kairos-url")) {
      return "--apply writes through Kairos' API: give --kairos-url and --token-env";
    }
    if (o.containsKey("kairos-url")) {
      String tokenVar = o.get("token-env");
      if (tokenVar == null || tokenVar.isEmpty()) {
        return "--kairos-url needs --token-env=VAR naming the variable that holds an ADMIN token";
      }
      if (env.apply(tokenVar) == null || env.apply(tokenVar).isBlank()) {
        return "--token-env=" + tokenVar + ": that environment variable is not set";
      }
    }
    return null;
  }

  private static String json(MigrationReport report) throws IOException {
    return new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValueAsString(report)
        + "\n";
  }
}
