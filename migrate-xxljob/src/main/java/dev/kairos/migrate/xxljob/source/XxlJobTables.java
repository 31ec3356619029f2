package dev.kairos.migrate.xxljob.source;

import java.util.List;

/**
 * What the importer reads from an xxl-job database: its executor groups and its jobs.
 *
 * @param source where the rows came from, for the report ("dump xxl.sql", "jdbc:mariadb://db/xxl")
 * @param notes what the reader found worth telling about the source itself (values it could not
 *     read, such as an SQL expression in a dump), for the report's notes
 */
public record XxlJobTables(
    String source, List<XxlJobGroup> groups, List<XxlJobInfo> jobs, List<String> notes) {

  public XxlJobTables {
    groups = List.copyOf(groups);
    jobs = List.copyOf(jobs);
    notes = List.copyOf(notes);
  }

  /** Tables with nothing to note about their source. */
  public XxlJobTables(String source, List<XxlJobGroup> groups, List<XxlJobInfo> jobs) {
    this(source, groups, jobs, List.of());
  }
}
