package dev.kairos.sync.history.read;

import java.time.LocalDate;
import java.util.List;

/**
 * The daily report of the UTC days [from, to], newest day first.
 *
 * @param app the app asked for, or null for every app
 * @param apps one row per day and app
 * @param allJobs one row per day over every job (app "*"), whatever {@code app} says
 */
public record DailyReport(
    LocalDate from,
    LocalDate to,
    String app,
    List<AppDailyCount> apps,
    List<AppDailyCount> allJobs) {}
