package dev.kairos.migrate.xxljob.source;

import java.util.List;

/**
 * What the importer reads from an xxl-job database: its executor groups and its jobs.
 *
 * @param source where the rows came from, for the report ("dump xxl.sql", "jdbc:mariadb://db/xxl")
 */
public record XxlJobTables(String source, List<XxlJobGroup> groups, List<XxlJobInfo> jobs) {

  public XxlJobTables {
    groups = List.copyOf(groups);
    jobs = List.copyOf(jobs);
  }
}
