package dev.kairos.mq.executor;

import dev.kairos.core.model.TriggerState;
import dev.kairos.protocol.message.MessageCodec;
import dev.kairos.protocol.message.ResultMessage;
import dev.kairos.protocol.message.ResultStatus;
import dev.kairos.protocol.message.TopicNames;
import dev.kairos.protocol.message.TriggerMessage;
import dev.kairos.protocol.start.TriggerRecords;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.SendCallback;
import org.apache.rocketmq.client.producer.SendResult;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How runs end: the end is recorded in Redis ({@code complete_trigger}) a linger after the run
 * ({@link #END_LINGER_MS}) without holding the worker for the round trip, and what Redis does not
 * hold goes on {@link TopicNames#RESULTS} ({@link ResultReports}): a result whose record could not
 * be written, reports about copies, and with {@link ResultReports#ALL} every result. {@link
 * #awaitEndings} lets a stopping executor record and report the ends still in flight. Thread-safe.
 */
final class RunEnds {

  private static final Logger log = LoggerFactory.getLogger(RunEnds.class);

  /** How long a stopping executor waits for run ends still being written or published. */
  private static final long ENDINGS_GRACE_MS = 10_000;

  /**
   * How long a run's end waits before it is recorded. The runs of a burst end right after they
   * start; recorded at once, their ends would queue in Redis between the start claims of the
   * burst's later triggers (W2: every end also appends the trigger's history event). Waiting a
   * tenth of a second lets the burst's start claims go first; the end is still recorded, and its
   * lifecycle reaction made, within a fraction of a second.
   */
  static final long END_LINGER_MS = 100;

  private final TriggerRecords records;
  private final DefaultMQProducer producer;
  private final ExecutorService publisher;
  private final ScheduledExecutorService timers;
  private final ResultReports reports;
  private final String instanceId;
  private final ExecutorCounters counters;
  private final MessageCodec codec = new MessageCodec();

  /** Ends being written to Redis (and published where needed): close() waits for them. */
  private final Set<CompletableFuture<?>> ending = ConcurrentHashMap.newKeySet();

  /**
   * @param timers runs the ends after their linger ({@link #END_LINGER_MS})
   */
  RunEnds(
      TriggerRecords records,
      DefaultMQProducer producer,
      ExecutorService publisher,
      ScheduledExecutorService timers,
      ResultReports reports,
      String instanceId,
      ExecutorCounters counters) {
    this.records = records;
    this.producer = producer;
    this.publisher = publisher;
    this.timers = timers;
    this.reports = reports;
    this.instanceId = instanceId;
    this.counters = counters;
  }

  /**
   * Records how a started run ended; publishes the result when the record could not be written (the
   * scheduler's result consumer then writes it), or always with {@link ResultReports#ALL}. An end
   * with nothing to publish completes where Redis answered: handing every end to the publisher
   * thread cost a thread wake-up per fire.
   */
  void end(TriggerMessage t, int slot, ResultStatus status, long startedMs, String message) {
    String bounded = ResultMessage.truncate(message);
    CompletableFuture<Void> ended = new CompletableFuture<>();
    track(ended);
    try {
      timers.schedule(
          () -> record(t, slot, status, startedMs, bounded, ended),
          END_LINGER_MS,
          TimeUnit.MILLISECONDS);
    } catch (RejectedExecutionException e) {
      record(t, slot, status, startedMs, bounded, ended); // stopping: record it now
    }
  }

  private void record(
      TriggerMessage t,
      int slot,
      ResultStatus status,
      long startedMs,
      String bounded,
      CompletableFuture<Void> ended) {
    CompletableFuture<?> write;
    try {
      write =
          records
              .completeAsync(
                  t.triggerId(),
                  t.jobId(),
                  t.scheduledFireMs(),
                  instanceId,
                  TriggerState.valueOf(status.name()),
                  bounded)
              .toCompletableFuture();
    } catch (RuntimeException e) {
      write = CompletableFuture.failedFuture(e);
    }
    write.whenComplete(
        (outcome, failure) -> {
          if (failure == null && reports != ResultReports.ALL) {
            ended.complete(null);
            return;
          }
          try {
            publisher.execute(
                () -> publishEnd(t, slot, status, startedMs, bounded, failure, ended));
          } catch (RejectedExecutionException e) {
            ended.complete(null); // stopping gave up waiting; the lost-trigger monitor settles it
          }
        });
  }

  /** Publisher thread: reports an end whose record failed, or every end with {@code ALL}. */
  private void publishEnd(
      TriggerMessage t,
      int slot,
      ResultStatus status,
      long startedMs,
      String bounded,
      Throwable failure,
      CompletableFuture<Void> ended) {
    try {
      if (failure != null) {
        counters.errors.increment();
        log.warn(
            "recording the end of {} failed ({}); publishing its {} result for the scheduler to"
                + " record",
            t.triggerId(),
            failure.toString(),
            status);
      }
      report(t, slot, status, startedMs, bounded);
    } finally {
      ended.complete(null);
    }
  }

  /** Keeps {@link #awaitEndings} waiting for {@code work} (bounded): a run's end, a send. */
  void track(CompletableFuture<?> work) {
    ending.add(work);
    work.whenComplete((ok, failure) -> ending.remove(work));
  }

  /** Publishes a result without waiting for the broker; {@link #awaitEndings} waits for it. */
  void report(TriggerMessage t, int slot, ResultStatus status, long startedMs, String text) {
    CompletableFuture<Void> sent = new CompletableFuture<>();
    track(sent);
    try {
      ResultMessage result =
          ResultMessage.of(
              t, instanceId, slot, status, startedMs, System.currentTimeMillis(), text);
      producer.send(
          codec.toMessage(result),
          new SendCallback() {
            @Override
            public void onSuccess(SendResult result) {
              sent.complete(null);
            }

            @Override
            public void onException(Throwable e) {
              counters.errors.increment();
              log.warn(
                  "publishing the {} result of {} failed: {}", status, t.triggerId(), e.toString());
              sent.complete(null);
            }
          });
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      counters.errors.increment();
      sent.complete(null);
    } catch (Exception e) {
      counters.errors.increment();
      log.warn("publishing the {} result of {} failed: {}", status, t.triggerId(), e.toString());
      sent.complete(null);
    }
  }

  /**
   * Waits, bounded, for the ends still being written and the results still being sent (an end may
   * start a send while this waits), so a stopping executor records and reports them.
   */
  void awaitEndings() {
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(ENDINGS_GRACE_MS);
    while (!ending.isEmpty()) {
      long left = deadline - System.nanoTime();
      try {
        if (left <= 0) {
          throw new TimeoutException();
        }
        CompletableFuture.allOf(ending.toArray(CompletableFuture[]::new))
            .get(left, TimeUnit.NANOSECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      } catch (ExecutionException e) {
        // logged where it failed; wait for the rest
      } catch (TimeoutException e) {
        log.warn(
            "{} run ends or result sends not done within {} ms of stopping; the lost-trigger"
                + " monitor settles them",
            ending.size(),
            ENDINGS_GRACE_MS);
        return;
      }
    }
  }
}
