package dev.kairos.devinfra;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.apache.rocketmq.remoting.protocol.RemotingCommand;
import org.apache.rocketmq.remoting.protocol.RequestCode;
import org.junit.jupiter.api.Test;

/**
 * The embedded broker answers every request a client writes as soon as it connects, whatever the
 * TCP segments the requests arrive in. With {@code serverNettyWorkerGroupEnable=false}, RocketMQ
 * 5.3.3 hands the first bytes of a connection to its TLS-detection handler on another thread than
 * the decoder, so a later segment could overtake them: the broker then read a frame length from the
 * middle of a request, logged "decode exception" and closed the connection, failing every send in
 * flight on it. In 200 connections here about 14 broke that way; none may.
 */
@RealInfra(rocketMq = true)
class BrokerFramingIT {

  private static final int CONNECTIONS = 200;
  private static final int REQUESTS = 20;

  /** Pauses between writes, so that requests arrive in separate reads at varied moments. */
  private static final int[] GAPS_MICROS = {0, 40, 80, 120, 160, 200, 240};

  private final EmbeddedRocketMq mq;

  BrokerFramingIT(EmbeddedRocketMq mq) {
    this.mq = mq;
  }

  @Test
  void everyRequestWrittenRightAfterConnectingIsAnswered() throws IOException {
    String[] hostPort = mq.brokerAddress().split(":");
    InetSocketAddress broker = new InetSocketAddress(hostPort[0], Integer.parseInt(hostPort[1]));
    List<String> broken = new ArrayList<>();
    for (int connection = 0; connection < CONNECTIONS; connection++) {
      int answered = exchange(broker, GAPS_MICROS[connection % GAPS_MICROS.length]);
      if (answered != REQUESTS) {
        broken.add("connection " + connection + ": " + answered + " of " + REQUESTS + " answered");
      }
    }
    assertThat(broken).isEmpty();
  }

  /** Writes the requests one segment each, then counts the answers until the broker hangs up. */
  private static int exchange(InetSocketAddress broker, int gapMicros) throws IOException {
    try (Socket socket = new Socket()) {
      socket.setTcpNoDelay(true);
      socket.setSoTimeout(5_000);
      socket.connect(broker, 5_000);
      OutputStream out = socket.getOutputStream();
      for (int i = 0; i < REQUESTS; i++) {
        ByteBuffer frame =
            RemotingCommand.createRequestCommand(RequestCode.GET_BROKER_CONFIG, null).encode();
        out.write(frame.array(), frame.arrayOffset(), frame.remaining());
        out.flush();
        spin(gapMicros);
      }
      DataInputStream in = new DataInputStream(socket.getInputStream());
      int answered = 0;
      try {
        for (; answered < REQUESTS; answered++) {
          in.readFully(new byte[in.readInt()]);
        }
      } catch (EOFException | SocketException hungUp) {
        return answered;
      }
      return answered;
    }
  }

  /** A sleep would round up to the timer's millisecond; the gaps are microseconds. */
  private static void spin(int micros) {
    long until = System.nanoTime() + micros * 1_000L;
    while (System.nanoTime() < until) {
      Thread.onSpinWait();
    }
  }
}
