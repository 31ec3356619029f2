package dev.kairos.drills;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The drills' partition proxy against a real echo server on loopback. */
class TcpProxyTest {

  private ServerSocket echo;
  private final ExecutorService echoThreads =
      Executors.newCachedThreadPool(r -> new Thread(r, "echo-server"));
  private TcpProxy proxy;

  @BeforeEach
  void start() throws IOException {
    echo = new ServerSocket(0);
    echoThreads.submit(
        () -> {
          while (!echo.isClosed()) {
            Socket client = echo.accept();
            echoThreads.submit(() -> echoAll(client));
          }
          return null;
        });
    proxy = TcpProxy.start("test", "127.0.0.1", echo.getLocalPort());
  }

  @AfterEach
  void stop() throws IOException {
    proxy.close();
    echo.close();
    echoThreads.shutdownNow();
  }

  @Test
  void forwardsBothWays() throws IOException {
    try (Socket client = connect()) {
      send(client, "hello");
      assertThat(receive(client, 5, 5_000)).isEqualTo("hello");
    }
  }

  @Test
  void aPartitionHoldsBytesUntilHealedAndKeepsTheConnection() throws IOException {
    try (Socket client = connect()) {
      send(client, "one");
      assertThat(receive(client, 3, 5_000)).isEqualTo("one");

      proxy.partition();
      send(client, "two");
      // A correct proxy never lets a byte through while partitioned: any echo fails the test.
      assertThat(receive(client, 3, 500)).isEmpty();

      proxy.heal();
      assertThat(receive(client, 3, 5_000)).isEqualTo("two");
    }
  }

  @Test
  void aConnectionOpenedDuringAPartitionIsAnsweredOnlyAfterTheHeal() throws IOException {
    proxy.partition();
    try (Socket client = connect()) {
      send(client, "late");
      assertThat(receive(client, 4, 500)).isEmpty();

      proxy.heal();
      assertThat(receive(client, 4, 5_000)).isEqualTo("late");
    }
  }

  private Socket connect() throws IOException {
    return new Socket("127.0.0.1", proxy.port());
  }

  private static void send(Socket socket, String text) throws IOException {
    OutputStream out = socket.getOutputStream();
    out.write(text.getBytes(StandardCharsets.US_ASCII));
    out.flush();
  }

  /** Up to {@code n} bytes, waiting at most {@code timeoutMs} for each; "" when none came. */
  private static String receive(Socket socket, int n, int timeoutMs) throws IOException {
    socket.setSoTimeout(timeoutMs);
    InputStream in = socket.getInputStream();
    StringBuilder got = new StringBuilder();
    try {
      while (got.length() < n) {
        int b = in.read();
        if (b < 0) {
          break;
        }
        got.append((char) b);
      }
    } catch (SocketTimeoutException e) {
      // nothing more within the timeout
    }
    return got.toString();
  }

  private static Void echoAll(Socket client) throws IOException {
    try (client) {
      InputStream in = client.getInputStream();
      OutputStream out = client.getOutputStream();
      byte[] buffer = new byte[1024];
      int n;
      while ((n = in.read(buffer)) > 0) {
        out.write(buffer, 0, n);
        out.flush();
      }
    }
    return null;
  }
}
