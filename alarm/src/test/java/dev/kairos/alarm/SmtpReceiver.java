package dev.kairos.alarm;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A real (minimal) SMTP server on a free loopback port: enough of RFC 5321 for JavaMail to hand
 * over a message (EHLO/HELO, MAIL, RCPT, DATA, QUIT; anything else is answered 250). Records each
 * message's envelope recipients and raw data. One session at a time, on its own thread.
 */
final class SmtpReceiver implements AutoCloseable {

  record Mail(List<String> recipients, String data) {}

  private final ServerSocket server;
  private final Thread thread;
  private final List<Mail> mails = new CopyOnWriteArrayList<>();

  SmtpReceiver() throws IOException {
    server = new ServerSocket(0, 10, InetAddress.getLoopbackAddress());
    thread = new Thread(this::serve, "test-smtp-receiver");
    thread.setDaemon(true);
    thread.start();
  }

  int port() {
    return server.getLocalPort();
  }

  List<Mail> mails() {
    return List.copyOf(mails);
  }

  private void serve() {
    while (!server.isClosed()) {
      try (Socket socket = server.accept()) {
        session(socket);
      } catch (SocketException e) {
        return; // closed
      } catch (IOException e) {
        // a broken session: wait for the next one
      }
    }
  }

  private void session(Socket socket) throws IOException {
    BufferedReader in =
        new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.UTF_8));
    OutputStream out = socket.getOutputStream();
    reply(out, "220 localhost test SMTP");
    List<String> recipients = new ArrayList<>();
    String line;
    while ((line = in.readLine()) != null) {
      String command = line.length() >= 4 ? line.substring(0, 4).toUpperCase() : line;
      switch (command) {
        case "EHLO", "HELO" -> reply(out, "250 localhost");
        case "RCPT" -> {
          recipients.add(line.substring(line.indexOf('<') + 1, line.indexOf('>')));
          reply(out, "250 OK");
        }
        case "DATA" -> {
          reply(out, "354 end data with <CR><LF>.<CR><LF>");
          StringBuilder data = new StringBuilder();
          String dataLine;
          while ((dataLine = in.readLine()) != null && !dataLine.equals(".")) {
            data.append(dataLine).append('\n');
          }
          mails.add(new Mail(List.copyOf(recipients), data.toString()));
          recipients.clear();
          reply(out, "250 OK queued");
        }
        case "QUIT" -> {
          reply(out, "221 bye");
          return;
        }
        default -> reply(out, "250 OK");
      }
    }
  }

  private static void reply(OutputStream out, String line) throws IOException {
    out.write((line + "\r\n").getBytes(StandardCharsets.US_ASCII));
    out.flush();
  }

  @Override
  public void close() throws IOException {
    server.close();
  }
}
