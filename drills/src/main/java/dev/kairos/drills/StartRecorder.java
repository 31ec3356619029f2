package dev.kairos.drills;

import dev.kairos.mq.executor.JobContext;
import dev.kairos.mq.spring.KairosJob;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.beans.factory.annotation.Value;

/**
 * The drill jobs' handler, {@value #HANDLER}: appends one line {@code <triggerId> <startMs>
 * <instanceId>} per handler start to the start log, before returning. Each line is one {@code
 * write(2)} on an O_APPEND channel, so a SIGKILL loses nothing already written (the page cache
 * survives the process) and lines of two processes never interleave. The log is the drill's
 * independent witness of starts: were the start claim ever to let a trigger through twice, the
 * trigger id would appear twice here.
 */
public class StartRecorder implements DisposableBean {

  /** Handler name the drill jobs use. */
  public static final String HANDLER = "drillRecord";

  private final FileChannel channel;
  private final String instanceId;

  public StartRecorder(
      @Value("${drills.start-log}") Path startLog,
      @Value("${kairos.executor.instance-id}") String instanceId) {
    this.instanceId = instanceId;
    try {
      Files.createDirectories(startLog.toAbsolutePath().getParent());
      this.channel =
          FileChannel.open(
              startLog,
              StandardOpenOption.CREATE,
              StandardOpenOption.WRITE,
              StandardOpenOption.APPEND);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot open the start log " + startLog, e);
    }
  }

  @KairosJob(HANDLER)
  public String record(JobContext context) throws IOException {
    started(context.triggerId());
    return "recorded";
  }

  /** Appends the start line of {@code triggerId}; other drill handlers record their starts here. */
  public void started(String triggerId) throws IOException {
    String line = triggerId + " " + System.currentTimeMillis() + " " + instanceId + "\n";
    ByteBuffer bytes = ByteBuffer.wrap(line.getBytes(StandardCharsets.UTF_8));
    synchronized (channel) {
      while (bytes.hasRemaining()) {
        channel.write(bytes);
      }
    }
  }

  @Override
  public void destroy() throws IOException {
    channel.close();
  }
}
