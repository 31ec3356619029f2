package dev.kairos.migrate.xxljob.mapping;

import dev.kairos.core.model.BlockStrategy;
import dev.kairos.core.model.JobDefinition;
import dev.kairos.core.model.MisfireStrategy;
import dev.kairos.core.model.RoutingStrategy;
import dev.kairos.core.model.ScheduleType;
import dev.kairos.core.schedule.CronDialect;
import dev.kairos.core.validation.JobValidator;
import dev.kairos.core.validation.ValidationProblem;
import dev.kairos.migrate.xxljob.report.JobReport;
import dev.kairos.migrate.xxljob.report.JobReport.MappedField;
import dev.kairos.migrate.xxljob.report.JobReport.NotCarried;
import dev.kairos.migrate.xxljob.report.JobReport.Verdict;
import dev.kairos.migrate.xxljob.source.XxlJobGroup;
import dev.kairos.migrate.xxljob.source.XxlJobInfo;
import dev.kairos.migrate.xxljob.source.XxlJobTables;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * Maps xxl-job's jobs onto Kairos jobs, field by field, and says for each what maps, what does not
 * and why. A job is imported only when every field it needs maps and core's {@link JobValidator}
 * (the one the node runs) accepts the result.
 *
 * <p>Enum values follow xxl-job's own reading of them: an unknown misfire or block strategy is
 * DO_NOTHING or SERIAL_EXECUTION there (its {@code match(name, default)}), so it is here, with a
 * note; an unknown routing strategy fails every trigger in xxl-job, so such a job is not imported.
 */
public final class JobMapper {

  /** xxl-job reads a fire older than its 5 s pre-read as a misfire; Kairos' minimum is the same. */
  static final long MISFIRE_THRESHOLD_MS = JobDefinition.MIN_MISFIRE_THRESHOLD_MS;

  private final MappingOptions options;
  private final JobValidator validator = new JobValidator();

  public JobMapper(MappingOptions options) {
    this.options = options;
  }

  public List<MappedJob> map(XxlJobTables tables) {
    Map<Integer, XxlJobGroup> groups = new HashMap<>();
    tables.groups().forEach(g -> groups.put(g.id(), g));
    // Pass 1: every field but the children, so a child's verdict is known before its parents map.
    List<Draft> drafts = tables.jobs().stream().map(job -> draft(job, groups)).toList();
    Map<Integer, Draft> byXxlId = new HashMap<>();
    drafts.forEach(d -> byXxlId.put(d.job.id(), d));
    List<MappedJob> mapped = new ArrayList<>(drafts.size());
    for (Draft draft : drafts) {
      children(draft, byXxlId);
      mapped.add(draft.finish());
    }
    return mapped;
  }

  /**
   * Notes about the source as a whole: what its reader noted (values it could not read, such as
   * {@code now()} in a dump) and executor groups no job uses, which are not imported.
   */
  public static List<String> notes(XxlJobTables tables) {
    Set<Integer> used = new LinkedHashSet<>();
    tables.jobs().forEach(j -> used.add(j.jobGroup()));
    List<String> notes = new ArrayList<>(tables.notes());
    for (XxlJobGroup group : tables.groups()) {
      if (!used.contains(group.id())) {
        notes.add(
            "executor group "
                + group.id()
                + " ("
                + group.appName()
                + ") has no jobs: nothing to import for it; Kairos apps exist through their jobs");
      }
    }
    return notes;
  }

  public String jobId(int xxlId) {
    return options.idPrefix() + xxlId;
  }

  private Draft draft(XxlJobInfo job, Map<Integer, XxlJobGroup> groups) {
    Draft d = new Draft(job, jobId(job.id()));
    d.builder.createdMs(options.nowMs()).updatedMs(options.nowMs());

    XxlJobGroup group = groups.get(job.jobGroup());
    if (group == null) {
      d.problem("job_group " + job.jobGroup() + " is not in xxl_job_group: no executor app");
    } else {
      d.builder.app(group.appName());
      d.map(
          "job_group",
          job.jobGroup() + " (" + group.appName() + ")",
          "app",
          group.appName(),
          "xxl_job_group.app_name");
    }

    glueAndHandler(d);
    schedule(d);

    MisfireStrategy misfire =
        lenient(job.misfireStrategy(), MisfireStrategy::valueOf, MisfireStrategy.DO_NOTHING);
    d.builder.misfire(misfire, MISFIRE_THRESHOLD_MS);
    d.map(
        "misfire_strategy",
        job.misfireStrategy(),
        "misfire",
        misfire.name(),
        defaulted(job.misfireStrategy(), misfire.name()));
    d.map(
        null,
        null,
        "misfireThresholdMs",
        String.valueOf(MISFIRE_THRESHOLD_MS),
        "xxl-job's fixed 5 s pre-read");

    String route = job.executorRouteStrategy();
    RoutingStrategy routing = strict(route, RoutingStrategy::valueOf);
    if (routing == null) {
      d.problem(
          "executor_route_strategy "
              + quoted(route)
              + " is not one of "
              + List.of(RoutingStrategy.values())
              + "; xxl-job fails such a job's triggers too");
    } else {
      d.builder.routing(routing);
      d.map("executor_route_strategy", route, "routing", routing.name(), null);
    }

    BlockStrategy block =
        lenient(
            job.executorBlockStrategy(), BlockStrategy::valueOf, BlockStrategy.SERIAL_EXECUTION);
    d.builder.block(block);
    d.map(
        "executor_block_strategy",
        job.executorBlockStrategy(),
        "block",
        block.name(),
        defaulted(job.executorBlockStrategy(), block.name()));

    long timeoutMs = job.executorTimeout() * 1000L;
    d.builder.timeoutMs(timeoutMs);
    d.map(
        "executor_timeout",
        job.executorTimeout() + " s",
        "timeoutMs",
        String.valueOf(timeoutMs),
        job.executorTimeout() == 0 ? "0 = none in both" : "seconds to ms");

    d.builder.retryCount(job.executorFailRetryCount());
    d.map(
        "executor_fail_retry_count",
        String.valueOf(job.executorFailRetryCount()),
        "retryCount",
        String.valueOf(job.executorFailRetryCount()),
        job.executorFailRetryCount() > 0
            ? "each retry 1 s after the failure, with a new trigger id"
            : null);

    String params = job.executorParam() == null ? "" : job.executorParam();
    if (d.glueInterpreter != null) {
      String script = ScriptJob.params(d.glueInterpreter, job.glueSource(), params);
      d.builder.params(script);
      d.map(
          "glue_source",
          abbreviate(job.glueSource()),
          "params",
          abbreviate(script),
          "the script job's params: interpreter, script"
              + (params.isEmpty()
                  ? ""
                  : ", and executor_param as its first argument, as in xxl-job"));
    } else {
      d.builder.params(params);
      d.map("executor_param", job.executorParam(), "params", params, null);
    }

    boolean enabled = job.triggerStatus() == 1;
    d.builder.enabled(enabled);
    d.map(
        "trigger_status",
        String.valueOf(job.triggerStatus()),
        "enabled",
        String.valueOf(enabled),
        enabled ? "1 = running" : "0 = stopped: imported disabled");

    for (ExtraColumn extra : ExtraColumn.ALL) {
      String value = extra.value().apply(job);
      if (value == null || value.isEmpty()) {
        continue;
      }
      if (extra.kairosField() == null) {
        d.notCarried.add(new NotCarried(extra.xxl(), abbreviate(value), extra.reason()));
      } else {
        d.extras.put(extra.kairosField(), extra.toKairos().apply(value));
        d.map(extra.xxl(), value, extra.kairosField(), value, null);
      }
    }
    return d;
  }

  private void glueAndHandler(Draft d) {
    XxlJobInfo job = d.job;
    String glue = job.glueType() == null ? "BEAN" : job.glueType();
    if (glue.equals("BEAN")) {
      String handler = job.executorHandler();
      if (handler == null || handler.isBlank()) {
        d.problem("executor_handler is empty: a BEAN job needs the handler's name");
      } else {
        d.builder.handler(handler.strip());
        d.map(
            "executor_handler",
            handler,
            "handler",
            handler.strip(),
            "glue_type BEAN: the @XxlJob/@KairosJob handler of that name");
      }
      if (job.glueSource() != null && !job.glueSource().isBlank()) {
        d.notCarried.add(
            new NotCarried(
                "glue_source",
                abbreviate(job.glueSource()),
                "a BEAN job does not run its glue_source in xxl-job either"));
      }
    } else if (GLUE_INTERPRETERS.containsKey(glue)) {
      String interpreter = GLUE_INTERPRETERS.get(glue);
      if (job.glueSource() == null || job.glueSource().isBlank()) {
        d.problem("glue_type " + glue + " with an empty glue_source: nothing to run");
        return;
      }
      d.glueInterpreter = interpreter;
      d.builder.handler(ScriptJob.HANDLER);
      d.map(
          "glue_type",
          glue,
          "handler",
          ScriptJob.HANDLER,
          "run by "
              + interpreter
              + " on an executor of the app with Kairos' built-in script handler enabled and "
              + interpreter
              + " allowed (kairos.executor.builtin.script.*, docs/executors.md)");
    } else if (glue.equals("GLUE_GROOVY")) {
      d.problem(
          "glue_type GLUE_GROOVY: Kairos runs no Groovy in the executor's JVM; rewrite it as a"
              + " handler in an executor service");
      d.notCarried.add(
          new NotCarried(
              "glue_source",
              abbreviate(job.glueSource() == null ? "" : job.glueSource()),
              "Groovy source has no Kairos counterpart"));
    } else {
      d.problem("glue_type " + quoted(glue) + " is unknown");
    }
  }

  private void schedule(Draft d) {
    XxlJobInfo job = d.job;
    String type = job.scheduleType();
    String conf = job.scheduleConf() == null ? "" : job.scheduleConf().strip();
    switch (type) {
      case "CRON" -> {
        d.builder.schedule(ScheduleType.CRON, conf).cronDialect(CronDialect.QUARTZ);
        d.builder.zone(options.zone());
        d.map("schedule_type", type, "scheduleType", "CRON", null);
        d.map(
            "schedule_conf",
            job.scheduleConf(),
            "schedule",
            conf,
            "cronDialect QUARTZ: read as xxl-job reads it");
        d.map(null, null, "zone", options.zone(), "the xxl-job admin server's zone (--zone)");
      }
      case "FIX_RATE", "FIX_DELAY" -> {
        boolean rate = type.equals("FIX_RATE");
        Long seconds = positiveSeconds(conf);
        if (seconds == null) {
          d.problem(
              "schedule_conf "
                  + quoted(job.scheduleConf())
                  + " is not a positive number of"
                  + " seconds for "
                  + type);
          return;
        }
        String ms = String.valueOf(seconds * 1000);
        d.builder.schedule(rate ? ScheduleType.FIXED_RATE : ScheduleType.FIXED_DELAY, ms);
        d.map("schedule_type", type, "scheduleType", rate ? "FIXED_RATE" : "FIXED_DELAY", null);
        d.map(
            "schedule_conf",
            job.scheduleConf(),
            "schedule",
            ms,
            "seconds to ms; the phase starts at the import, not at xxl-job's last fire");
      }
      case "NONE" -> {
        d.builder.schedule(ScheduleType.API, "");
        d.map(
            "schedule_type",
            type,
            "scheduleType",
            "API",
            "fires only when triggered (POST /api/v1/jobs/{id}/trigger) or as a child");
      }
      default ->
          d.problem("schedule_type " + quoted(type) + " is not one of [CRON, FIX_RATE, NONE]");
    }
  }

  private void children(Draft d, Map<Integer, Draft> byXxlId) {
    String raw = d.job.childJobIds();
    if (raw == null || raw.isBlank()) {
      return;
    }
    List<String> ids = new ArrayList<>();
    List<String> dropped = new ArrayList<>();
    for (String part : raw.split(",")) {
      String text = part.strip();
      if (text.isEmpty()) {
        continue;
      }
      Integer xxlId = parseInt(text);
      Draft child = xxlId == null ? null : byXxlId.get(xxlId);
      if (child == null) {
        dropped.add(text + " (no such job)");
      } else if (child == d) {
        dropped.add(text + " (the job itself)");
      } else if (!child.problems.isEmpty()) {
        dropped.add(text + " (not imported)");
      } else if (!ids.contains(child.id)) {
        ids.add(child.id);
      }
    }
    d.builder.childJobIds(ids);
    d.map(
        "child_jobid",
        raw,
        "childJobIds",
        String.join(",", ids),
        dropped.isEmpty() ? "xxl-job ids to the imported jobs' ids" : "dropped: " + dropped);
  }

  /** Accumulates one job's mapping. */
  /** xxl-job's script GLUE types and the interpreter each ran with. */
  private static final Map<String, String> GLUE_INTERPRETERS =
      Map.of(
          "GLUE_SHELL", "bash",
          "GLUE_PYTHON", "python3",
          "GLUE_PYTHON2", "python2",
          "GLUE_NODEJS", "node",
          "GLUE_POWERSHELL", "pwsh",
          "GLUE_PHP", "php");

  private final class Draft {
    final XxlJobInfo job;
    final String id;
    final JobDefinition.Builder builder;
    final List<MappedField> mapped = new ArrayList<>();
    final List<NotCarried> notCarried = new ArrayList<>();
    final List<String> problems = new ArrayList<>();
    final Map<String, Object> extras = new LinkedHashMap<>();
    String glueInterpreter;

    Draft(XxlJobInfo job, String id) {
      this.job = job;
      this.id = id;
      this.builder = JobDefinition.builder(id);
    }

    void map(String xxl, String from, String kairos, String to, String note) {
      mapped.add(new MappedField(xxl, from, kairos, to, note));
    }

    void problem(String problem) {
      problems.add(problem);
    }

    MappedJob finish() {
      JobDefinition definition = null;
      if (problems.isEmpty()) {
        JobDefinition candidate = builder.build();
        for (ValidationProblem p : validator.validate(candidate)) {
          problems.add("Kairos rejects " + p.field() + ": " + p.message());
        }
        definition = problems.isEmpty() ? candidate : null;
      }
      Verdict verdict = definition != null ? Verdict.IMPORT : Verdict.SKIP;
      JobReport report =
          new JobReport(job.id(), id, job.jobDesc(), verdict, mapped, notCarried, problems, null);
      return new MappedJob(report, definition, definition != null ? extras : Map.of());
    }
  }

  private static <E extends Enum<E>> E strict(String name, Function<String, E> valueOf) {
    if (name == null) {
      return null;
    }
    try {
      return valueOf.apply(name.strip().toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      return null;
    }
  }

  private static <E extends Enum<E>> E lenient(
      String name, Function<String, E> valueOf, E fallback) {
    E value = strict(name, valueOf);
    return value == null ? fallback : value;
  }

  /** The note for a value xxl-job would have read as its default. */
  private static String defaulted(String raw, String used) {
    if (raw != null && raw.strip().equalsIgnoreCase(used)) {
      return null;
    }
    return (raw == null ? "absent" : "unknown value " + quoted(raw))
        + ": xxl-job reads it as "
        + used;
  }

  private static Long positiveSeconds(String conf) {
    try {
      long seconds = Long.parseLong(conf);
      return seconds > 0 && seconds <= JobDefinition.MAX_DURATION_MS / 1000 ? seconds : null;
    } catch (NumberFormatException e) {
      return null;
    }
  }

  private static Integer parseInt(String text) {
    try {
      return Integer.valueOf(text);
    } catch (NumberFormatException e) {
      return null;
    }
  }

  private static String quoted(String value) {
    return value == null ? "NULL" : "'" + value + "'";
  }

  static String abbreviate(String value) {
    String oneLine = value.replace('\n', ' ').replace('\r', ' ');
    return oneLine.length() <= 80 ? oneLine : oneLine.substring(0, 77) + "...";
  }
}
