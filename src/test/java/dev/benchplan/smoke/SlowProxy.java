package dev.benchplan.smoke;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A TCP proxy on 127.0.0.1 in front of a real server that passes requests through untouched and,
 * once a connection has carried a chat completion request, trickles the server's answer: small
 * reads, each held back for a delay. It turns the real llama-server into a slow one without
 * changing what it says.
 */
final class SlowProxy implements AutoCloseable {
  private static final byte[] CHAT =
      "POST /v1/chat/completions".getBytes(StandardCharsets.US_ASCII);

  private final ServerSocket listener;
  private final InetSocketAddress upstream;
  private final long delayMillis;
  private final List<Socket> sockets = new CopyOnWriteArrayList<>();

  /** A proxy to upstream that holds back each piece of a chat completion answer by delayMillis. */
  SlowProxy(InetSocketAddress upstream, long delayMillis) throws IOException {
    this.upstream = upstream;
    this.delayMillis = delayMillis;
    this.listener = new ServerSocket(0, 16, InetAddress.getLoopbackAddress());
    Thread acceptor = new Thread(this::acceptLoop, "slow-proxy-accept");
    acceptor.setDaemon(true);
    acceptor.start();
  }

  String url() {
    return "http://127.0.0.1:" + listener.getLocalPort();
  }

  private void acceptLoop() {
    while (!listener.isClosed()) {
      try {
        Socket client = listener.accept();
        Socket server = new Socket(upstream.getAddress(), upstream.getPort());
        sockets.add(client);
        sockets.add(server);
        boolean[] chatSeen = {false};
        pump(client, server, chatSeen, false);
        pump(server, client, chatSeen, true);
      } catch (IOException e) {
        return; // closed
      }
    }
  }

  private void pump(Socket from, Socket to, boolean[] chatSeen, boolean towardsClient) {
    Thread t =
        new Thread(
            () -> {
              byte[] buffer = new byte[towardsClient ? 64 : 16 << 10];
              try (InputStream in = from.getInputStream();
                  OutputStream out = to.getOutputStream()) {
                int n;
                while ((n = in.read(buffer)) >= 0) {
                  if (!towardsClient && contains(buffer, n, CHAT)) {
                    synchronized (chatSeen) {
                      chatSeen[0] = true;
                    }
                  }
                  boolean slow;
                  synchronized (chatSeen) {
                    slow = chatSeen[0];
                  }
                  if (towardsClient && slow && delayMillis > 0) {
                    Thread.sleep(delayMillis); // scripted time: a slow link to the real server
                  }
                  out.write(buffer, 0, n);
                  out.flush();
                }
              } catch (IOException | InterruptedException e) {
                // one side closed: the other is closed by try-with-resources
              }
            },
            "slow-proxy-pump");
    t.setDaemon(true);
    t.start();
  }

  private static boolean contains(byte[] buffer, int length, byte[] needle) {
    outer:
    for (int i = 0; i + needle.length <= length; i++) {
      for (int j = 0; j < needle.length; j++) {
        if (buffer[i + j] != needle[j]) {
          continue outer;
        }
      }
      return true;
    }
    return false;
  }

  @Override
  public void close() throws IOException {
    listener.close();
    for (Socket s : sockets) {
      s.close();
    }
  }
}
