package dev.kairos.drills;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashSet;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Asks one ZooKeeper server about itself with its four-letter words ({@code srvr}, {@code cons}),
 * the way an operator would with {@code nc}. The servers answer only the words in their {@code
 * zookeeper.4lw.commands.whitelist}; the drills' test JVM sets it to {@code *}.
 */
public final class ZkFourLetterWords {

  private static final Pattern SESSION = Pattern.compile("sid=(0x[0-9a-f]+)");
  private static final int TIMEOUT_MS = 3_000;

  private ZkFourLetterWords() {}

  /** Whether the server on {@code port} leads the ZooKeeper quorum ({@code Mode: leader}). */
  public static boolean isQuorumLeader(int port) {
    return ask(port, "srvr").contains("Mode: leader");
  }

  /** Session ids ({@code 0x...}) of the clients connected to the server on {@code port}. */
  public static Set<String> sessionIds(int port) {
    Set<String> ids = new LinkedHashSet<>();
    Matcher m = SESSION.matcher(ask(port, "cons"));
    while (m.find()) {
      ids.add(m.group(1));
    }
    return ids;
  }

  static String ask(int port, String word) {
    try (Socket socket = new Socket()) {
      socket.connect(new InetSocketAddress("127.0.0.1", port), TIMEOUT_MS);
      socket.setSoTimeout(TIMEOUT_MS);
      OutputStream out = socket.getOutputStream();
      out.write(word.getBytes(StandardCharsets.US_ASCII));
      out.flush();
      InputStream in = socket.getInputStream();
      String answer = new String(in.readAllBytes(), StandardCharsets.UTF_8);
      if (answer.contains("is not executed because it is not in the whitelist")) {
        throw new IllegalStateException(
            "zookeeper on "
                + port
                + " refuses '"
                + word
                + "': set zookeeper.4lw.commands.whitelist");
      }
      return answer;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot ask zookeeper on " + port + " '" + word + "'", e);
    }
  }
}
