package dev.kairos.migrate.xxljob.mapping;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.xxl.job.core.constant.ExecutorBlockStrategyEnum;
import com.xxl.job.core.glue.GlueTypeEnum;
import dev.kairos.core.model.BlockStrategy;
import dev.kairos.core.model.JobDefinition;
import dev.kairos.core.model.MisfireStrategy;
import dev.kairos.core.model.RoutingStrategy;
import dev.kairos.core.model.ScheduleType;
import dev.kairos.core.schedule.CronDialect;
import dev.kairos.migrate.xxljob.report.JobReport;
import dev.kairos.migrate.xxljob.report.JobReport.MappedField;
import dev.kairos.migrate.xxljob.report.JobReport.NotCarried;
import dev.kairos.migrate.xxljob.report.JobReport.Verdict;
import dev.kairos.migrate.xxljob.source.SqlDumpReaderTest;
import dev.kairos.migrate.xxljob.source.XxlJobGroup;
import dev.kairos.migrate.xxljob.source.XxlJobInfo;
import dev.kairos.migrate.xxljob.source.XxlJobTables;
import java.io.IOException;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class JobMapperTest {

  /** 2026-11-26T00:00:00Z: the instant the test jobs are checked at. */
  private static final long NOW = Instant.parse("2026-11-26T00:00:00Z").toEpochMilli();

  private static final MappingOptions OPTIONS = new MappingOptions(null, "Asia/Shanghai", NOW);

  /** xxl-job-admin's enums (not in xxl-job-core): ScheduleTypeEnum, MisfireStrategyEnum, ... */
  private static final List<String> SCHEDULE_TYPES = List.of("NONE", "CRON", "FIX_RATE");

  private static final List<String> MISFIRE_STRATEGIES = List.of("DO_NOTHING", "FIRE_ONCE_NOW");
  private static final List<String> ROUTE_STRATEGIES =
      List.of(
          "FIRST",
          "LAST",
          "ROUND",
          "RANDOM",
          "CONSISTENT_HASH",
          "LEAST_FREQUENTLY_USED",
          "LEAST_RECENTLY_USED",
          "FAILOVER",
          "BUSYOVER",
          "SHARDING_BROADCAST");

  private static Map<Integer, MappedJob> dump;

  @BeforeAll
  static void mapTheTestDump() throws IOException {
    List<MappedJob> jobs = new JobMapper(OPTIONS).map(SqlDumpReaderTest.testDump());
    dump = jobs.stream().collect(Collectors.toMap(j -> j.report().xxlId(), j -> j));
  }

  private static JobDefinition imported(int xxlId) {
    MappedJob job = dump.get(xxlId);
    assertThat(job.report().problems()).as("xxl job " + xxlId).isEmpty();
    assertThat(job.report().verdict()).isEqualTo(Verdict.IMPORT);
    return job.definition();
  }

  private static JobReport skipped(int xxlId) {
    MappedJob job = dump.get(xxlId);
    assertThat(job.report().verdict()).as("xxl job " + xxlId).isEqualTo(Verdict.SKIP);
    assertThat(job.definition()).isNull();
    assertThat(job.report().problems()).isNotEmpty();
    return job.report();
  }

  /** A BEAN job of group 1 with every field valid; tests change one field. */
  private static XxlJobInfo bean(
      String scheduleType, String conf, String misfire, String route, String block, String glue) {
    return new XxlJobInfo(
        1,
        1,
        "desc",
        null,
        null,
        scheduleType,
        conf,
        misfire,
        route,
        "handler",
        "",
        block,
        0,
        0,
        glue,
        null,
        null,
        1);
  }

  private static MappedJob mapOne(XxlJobInfo job) {
    XxlJobTables tables =
        new XxlJobTables("test", List.of(new XxlJobGroup(1, "app", "App")), List.of(job));
    return new JobMapper(OPTIONS).map(tables).get(0);
  }

  private static MappedField field(JobReport report, String kairos) {
    return report.mapped().stream()
        .filter(f -> f.kairos().equals(kairos))
        .findFirst()
        .orElseThrow(() -> new AssertionError("no mapped field " + kairos + " in " + report));
  }

  @Test
  void aCronJobKeepsItsQuartzCronZoneAndEveryStrategy() {
    JobDefinition job = imported(1);
    assertThat(job.id()).isEqualTo("xxl-1");
    assertThat(job.app()).isEqualTo("billing-executor");
    assertThat(job.handler()).isEqualTo("invoiceJob");
    assertThat(job.scheduleType()).isEqualTo(ScheduleType.CRON);
    assertThat(job.scheduleSpec()).isEqualTo("0 0 2 ? * 1");
    assertThat(job.cronDialect()).isEqualTo(CronDialect.QUARTZ);
    assertThat(job.zone()).isEqualTo("Asia/Shanghai");
    assertThat(job.params()).isEqualTo("2026-11");
    assertThat(job.routing()).isEqualTo(RoutingStrategy.FIRST);
    assertThat(job.block()).isEqualTo(BlockStrategy.SERIAL_EXECUTION);
    assertThat(job.misfireStrategy()).isEqualTo(MisfireStrategy.DO_NOTHING);
    assertThat(job.misfireThresholdMs()).isEqualTo(5_000);
    assertThat(job.timeoutMs()).isEqualTo(600_000);
    assertThat(job.retryCount()).isEqualTo(2);
    assertThat(job.enabled()).isTrue();
    assertThat(job.childJobIds()).containsExactly("xxl-2", "xxl-3");
    // Quartz's day-of-week 1 is Sunday: 02:00 Shanghai on Sunday 2026-11-29 is 18:00Z Saturday.
    assertThat(job.schedule().nextFireAfter(NOW))
        .hasValue(Instant.parse("2026-11-28T18:00:00Z").toEpochMilli());
  }

  @Test
  void everyScheduleTypeMaps() {
    assertThat(SCHEDULE_TYPES).containsExactlyInAnyOrder("NONE", "CRON", "FIX_RATE");
    assertThat(imported(1).scheduleType()).isEqualTo(ScheduleType.CRON);
    JobDefinition rate = imported(2);
    assertThat(rate.scheduleType()).isEqualTo(ScheduleType.FIXED_RATE);
    assertThat(rate.scheduleSpec()).as("30 s in ms").isEqualTo("30000");
    assertThat(imported(10).scheduleSpec()).isEqualTo("3600000");
    JobDefinition none = imported(3);
    assertThat(none.scheduleType()).isEqualTo(ScheduleType.API);
    assertThat(none.scheduleSpec()).isEmpty();
    assertThat(none.enabled()).isFalse();
    assertThat(none.params()).as("NULL param").isEmpty();
  }

  @Test
  void everyMisfireStrategyMaps() {
    for (String name : MISFIRE_STRATEGIES) {
      MappedJob job = mapOne(bean("CRON", "0 0 1 * * ?", name, "FIRST", null, "BEAN"));
      assertThat(job.definition().misfireStrategy().name()).isEqualTo(name);
    }
    assertThat(imported(2).misfireStrategy()).isEqualTo(MisfireStrategy.FIRE_ONCE_NOW);
    assertThat(imported(7).misfireStrategy()).isEqualTo(MisfireStrategy.FIRE_ONCE_NOW);
  }

  @Test
  void everyRoutingStrategyMapsToTheSameName() {
    Map<Integer, String> expected =
        Map.of(
            1,
            "FIRST",
            2,
            "LAST",
            3,
            "ROUND",
            5,
            "RANDOM",
            6,
            "CONSISTENT_HASH",
            7,
            "LEAST_FREQUENTLY_USED",
            8,
            "LEAST_RECENTLY_USED",
            9,
            "FAILOVER",
            10,
            "BUSYOVER",
            4,
            "SHARDING_BROADCAST");
    assertThat(expected.values()).containsExactlyInAnyOrderElementsOf(ROUTE_STRATEGIES);
    expected.forEach((id, route) -> assertThat(imported(id).routing().name()).isEqualTo(route));
  }

  @Test
  void everyBlockStrategyOfXxlJobCoreMaps() {
    for (ExecutorBlockStrategyEnum block : ExecutorBlockStrategyEnum.values()) {
      MappedJob job =
          mapOne(bean("CRON", "0 0 1 * * ?", "DO_NOTHING", "FIRST", block.name(), "BEAN"));
      assertThat(job.definition().block().name()).isEqualTo(block.name());
    }
    assertThat(imported(2).block()).isEqualTo(BlockStrategy.DISCARD_LATER);
    assertThat(imported(3).block()).isEqualTo(BlockStrategy.COVER_EARLY);
  }

  @Test
  void scriptGlueJobsBecomeScriptJobsAndGroovyIsNotImportable() throws Exception {
    Map<String, String> interpreters =
        Map.of(
            "GLUE_SHELL", "bash",
            "GLUE_PYTHON", "python3",
            "GLUE_PYTHON2", "python2",
            "GLUE_NODEJS", "node",
            "GLUE_POWERSHELL", "pwsh",
            "GLUE_PHP", "php");
    for (GlueTypeEnum glue : GlueTypeEnum.values()) {
      MappedJob job = mapOne(glueJob(glue.name(), "echo \"$1\"", "nightly"));
      switch (glue) {
        case BEAN -> {
          assertThat(job.importable()).as(job.report().problems().toString()).isTrue();
          assertThat(job.definition().handler()).isEqualTo("handler");
        }
        case GLUE_GROOVY -> {
          assertThat(job.importable()).isFalse();
          assertThat(job.report().problems())
              .singleElement(org.assertj.core.api.InstanceOfAssertFactories.STRING)
              .contains("GLUE_GROOVY");
          assertThat(job.report().notCarried()).extracting(NotCarried::xxl).contains("glue_source");
        }
        default -> {
          assertThat(job.importable()).as(glue.name()).isTrue();
          assertThat(job.definition().handler()).isEqualTo("kairos.script");
          JsonNode params = new ObjectMapper().readTree(job.definition().params());
          assertThat(params.path("interpreter").asText())
              .as(glue.name())
              .isEqualTo(interpreters.get(glue.name()));
          assertThat(params.path("script").asText()).isEqualTo("echo \"$1\"");
          assertThat(params.path("args").toString()).isEqualTo("[\"nightly\"]");
        }
      }
    }
    assertThat(interpreters.keySet())
        .as("every script GLUE type of xxl-job-core is mapped")
        .containsExactlyInAnyOrderElementsOf(
            Arrays.stream(GlueTypeEnum.values())
                .map(Enum::name)
                .filter(g -> !g.equals("BEAN") && !g.equals("GLUE_GROOVY"))
                .toList());
  }

  @Test
  void aScriptGlueJobWithoutSourceIsNotImportable() {
    MappedJob job = mapOne(glueJob("GLUE_SHELL", "", ""));
    assertThat(job.importable()).isFalse();
    assertThat(job.report().problems())
        .singleElement(org.assertj.core.api.InstanceOfAssertFactories.STRING)
        .contains("empty glue_source");
  }

  private static XxlJobInfo glueJob(String glue, String source, String param) {
    return new XxlJobInfo(
        1,
        1,
        "desc",
        null,
        null,
        "CRON",
        "0 0 1 * * ?",
        "DO_NOTHING",
        "FIRST",
        "handler",
        param,
        "SERIAL_EXECUTION",
        0,
        0,
        glue,
        source,
        null,
        1);
  }

  @Test
  void descriptionAuthorAndAlarmEmailsAreCarriedAsDescriptionOwnerAndRecipients() {
    MappedJob job = dump.get(1);
    assertThat(job.report().notCarried()).isEmpty();
    assertThat(job.extras())
        .containsEntry("description", "Nightly invoices")
        .containsEntry("owner", "alice")
        .containsEntry(
            "alarmEmails", java.util.List.of("billing-oncall@example.com", "alice@example.com"));
    assertThat(job.report().mapped())
        .extracting(JobReport.MappedField::xxl, JobReport.MappedField::kairos)
        .contains(
            org.assertj.core.groups.Tuple.tuple("job_desc", "description"),
            org.assertj.core.groups.Tuple.tuple("author", "owner"),
            org.assertj.core.groups.Tuple.tuple("alarm_email", "alarmEmails"));
  }

  @Test
  void childIdsBecomeKairosIdsAndTheOnesThatCannotAreNamed() {
    assertThat(imported(4).childJobIds()).containsExactly("xxl-5");
    JobDefinition fanOut = imported(20);
    assertThat(fanOut.childJobIds()).containsExactly("xxl-1");
    MappedField children = field(dump.get(20).report(), "childJobIds");
    assertThat(children.from()).isEqualTo("11,1, 20,404");
    assertThat(children.note())
        .contains("11 (not imported)", "20 (the job itself)", "404 (no such job)");
  }

  @Test
  void anInvalidCronOrAMissingGroupIsNotImported() {
    assertThat(skipped(18).problems())
        .singleElement(org.assertj.core.api.InstanceOfAssertFactories.STRING)
        .startsWith("Kairos rejects schedule");
    assertThat(skipped(19).problems())
        .containsExactly("job_group 99 is not in xxl_job_group: no executor app");
  }

  @Test
  void theTestDumpImportsSeventeenJobsAndSkipsThree() {
    // 11 BEAN jobs and the 6 script GLUE jobs; Groovy and two unmappable jobs are skipped.
    assertThat(dump.values().stream().filter(MappedJob::importable).count()).isEqualTo(17);
    assertThat(dump).hasSize(20);
  }

  @Test
  void unknownMisfireAndBlockValuesAreReadAsXxlJobReadsThem() {
    MappedJob job = mapOne(bean("CRON", "0 0 1 * * ?", "WHENEVER", "FIRST", null, "BEAN"));
    assertThat(job.definition().misfireStrategy()).isEqualTo(MisfireStrategy.DO_NOTHING);
    assertThat(job.definition().block()).isEqualTo(BlockStrategy.SERIAL_EXECUTION);
    assertThat(field(job.report(), "misfire").note())
        .isEqualTo("unknown value 'WHENEVER': xxl-job reads it as DO_NOTHING");
    assertThat(field(job.report(), "block").note())
        .isEqualTo("absent: xxl-job reads it as SERIAL_EXECUTION");
  }

  @Test
  void anUnknownRoutingStrategyIsNotImported() {
    MappedJob job = mapOne(bean("CRON", "0 0 1 * * ?", "DO_NOTHING", "NEAREST", null, "BEAN"));
    assertThat(job.importable()).isFalse();
    assertThat(job.report().problems().get(0)).contains("executor_route_strategy 'NEAREST'");
  }

  @Test
  void anUnknownScheduleTypeOrABadRateIsNotImported() {
    assertThat(mapOne(bean("FIX_WEEKLY", "1", "DO_NOTHING", "FIRST", null, "BEAN")).importable())
        .isFalse();
    MappedJob badRate = mapOne(bean("FIX_RATE", "ten", "DO_NOTHING", "FIRST", null, "BEAN"));
    assertThat(badRate.report().problems().get(0)).contains("'ten' is not a positive number");
    MappedJob zero = mapOne(bean("FIX_RATE", "0", "DO_NOTHING", "FIRST", null, "BEAN"));
    assertThat(zero.importable()).isFalse();
  }

  @Test
  void aBeanJobWithoutHandlerOrAnUnknownGlueTypeIsNotImported() {
    XxlJobInfo noHandler =
        new XxlJobInfo(
            1,
            1,
            "d",
            null,
            null,
            "CRON",
            "0 0 1 * * ?",
            "DO_NOTHING",
            "FIRST",
            " ",
            "",
            null,
            0,
            0,
            "BEAN",
            null,
            null,
            1);
    assertThat(mapOne(noHandler).report().problems())
        .containsExactly("executor_handler is empty: a BEAN job needs the handler's name");
    assertThat(
            mapOne(bean("CRON", "0 0 1 * * ?", null, "FIRST", null, "SPRING")).report().problems())
        .containsExactly("glue_type 'SPRING' is unknown");
  }

  @Test
  void anIdPrefixAndTheDefaultZoneApply() {
    XxlJobTables tables =
        new XxlJobTables(
            "t",
            List.of(new XxlJobGroup(1, "app", "App")),
            List.of(bean("CRON", "0 0 1 * * ?", null, "FIRST", null, "BEAN")));
    MappedJob job = new JobMapper(new MappingOptions("legacy.", null, NOW)).map(tables).get(0);
    assertThat(job.definition().id()).isEqualTo("legacy.1");
    assertThat(job.definition().zone()).isEqualTo("UTC");
  }

  @Test
  void groupsWithoutJobsAreNoted() throws IOException {
    assertThat(JobMapper.notes(SqlDumpReaderTest.testDump()))
        .singleElement(org.assertj.core.api.InstanceOfAssertFactories.STRING)
        .contains("executor group 4 (idle-executor) has no jobs");
  }
}
