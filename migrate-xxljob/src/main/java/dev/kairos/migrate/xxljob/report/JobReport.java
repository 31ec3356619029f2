package dev.kairos.migrate.xxljob.report;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;

/**
 * What became of one {@code xxl_job_info} row.
 *
 * @param xxlId the row's id
 * @param jobId the Kairos job id it maps to ({@code xxl-<id>} by default)
 * @param name the row's {@code job_desc}, to recognise the job (not carried: see notCarried)
 * @param verdict whether the job is imported
 * @param mapped every field that maps, xxl-job's value next to Kairos'
 * @param notCarried xxl-job fields Kairos jobs have no place for yet, each with the reason
 * @param problems why the job is not imported (empty when it is)
 * @param kairos what Kairos answered for this job (dry run or write); absent when not asked
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record JobReport(
    int xxlId,
    String jobId,
    String name,
    Verdict verdict,
    List<MappedField> mapped,
    List<NotCarried> notCarried,
    List<String> problems,
    KairosOutcome kairos) {

  public JobReport {
    mapped = List.copyOf(mapped);
    notCarried = List.copyOf(notCarried);
    problems = List.copyOf(problems);
  }

  public enum Verdict {
    /** Maps to a valid Kairos job. */
    IMPORT,
    /** Cannot be imported; {@link JobReport#problems()} says why. */
    SKIP
  }

  /**
   * @param xxl xxl-job's column
   * @param from its value
   * @param kairos the Kairos job field
   * @param to the value Kairos gets
   * @param note how the value was converted, where it was not copied as is
   */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public record MappedField(String xxl, String from, String kairos, String to, String note) {}

  /**
   * @param xxl xxl-job's column
   * @param value its value (abbreviated)
   * @param reason why Kairos does not carry it
   */
  public record NotCarried(String xxl, String value, String reason) {}

  /**
   * @param action Kairos' import action: CREATE, UPDATE, UNCHANGED or CONFLICT
   * @param applied whether the job was written
   * @param version the stored version after a write
   */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public record KairosOutcome(String action, boolean applied, Long version) {}

  public JobReport withKairos(KairosOutcome outcome) {
    return new JobReport(xxlId, jobId, name, verdict, mapped, notCarried, problems, outcome);
  }
}
