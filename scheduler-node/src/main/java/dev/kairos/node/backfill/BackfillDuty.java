package dev.kairos.node.backfill;

import dev.kairos.backfill.BackfillDriver;
import dev.kairos.coordinator.cluster.LeadershipListener;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.LongFunction;

/**
 * A leader duty: runs one {@link BackfillDriver} per term, started on {@code onElected} and closed
 * on {@code onRevoked}, so only the current leader submits backfill fires. Calls arrive serialised
 * from the leadership manager.
 */
final class BackfillDuty implements LeadershipListener, AutoCloseable {

  private final LongFunction<BackfillDriver> drivers;
  private final AtomicReference<BackfillDriver> current = new AtomicReference<>();

  BackfillDuty(LongFunction<BackfillDriver> drivers) {
    this.drivers = Objects.requireNonNull(drivers, "drivers");
  }

  @Override
  public void onElected(long term) {
    BackfillDriver driver = drivers.apply(term);
    BackfillDriver previous = current.getAndSet(driver);
    if (previous != null) {
      previous.close(); // Safety: never two terms driving in one process.
    }
    driver.start();
  }

  @Override
  public void onRevoked(long term) {
    BackfillDriver driver = current.get();
    if (driver != null && driver.term() == term && current.compareAndSet(driver, null)) {
      driver.close();
    }
  }

  @Override
  public void close() {
    BackfillDriver driver = current.getAndSet(null);
    if (driver != null) {
      driver.close();
    }
  }
}
