package dev.benchplan.kubetest;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * kube-proxy for one Service of the real-engine tier: a TCP forwarder listening on a loopback
 * address of its own at the Service's port, passing every connection to a local server (the tier's
 * llama-server). The pods' {@code /etc/hosts} name the Service at that address ({@link
 * PodExecution#withServiceAddress}), so a Job reaches {@code http://<svc>.<ns>:8000} unchanged
 * while the server listens on a free port; the address keeps 8000 clear of the machine's other
 * listeners (all of 127.0.0.0/8 is the loopback).
 */
public final class ServiceProxy implements AutoCloseable {
  private final ServerSocket server;
  private final URI target;
  private final List<Socket> open = new CopyOnWriteArrayList<>();

  private ServiceProxy(ServerSocket server, URI target) {
    this.server = server;
    this.target = target;
  }

  /** Forwards {@code address:port} to {@code target}'s host and port until closed. */
  public static ServiceProxy start(String address, int port, URI target) throws IOException {
    ServerSocket s = new ServerSocket();
    s.setReuseAddress(true);
    s.bind(new InetSocketAddress(InetAddress.getByName(address), port));
    ServiceProxy p = new ServiceProxy(s, target);
    Thread accept = new Thread(p::accept, "service-proxy-" + address + "-" + port);
    accept.setDaemon(true);
    accept.start();
    return p;
  }

  private void accept() {
    while (!server.isClosed()) {
      Socket in;
      try {
        in = server.accept();
      } catch (IOException e) {
        return; // closed
      }
      try {
        Socket out = new Socket(target.getHost(), target.getPort());
        open.add(in);
        open.add(out);
        AtomicInteger directions = new AtomicInteger(2);
        pipe(in, out, directions);
        pipe(out, in, directions);
      } catch (IOException e) {
        closeQuietly(in); // the server is down: the client sees a refused request, as it would
      }
    }
  }

  /**
   * Copies {@code from} to {@code to} on a thread of its own; EOF half-closes {@code to}; the pair
   * is closed when both directions ended, or at once when one fails.
   */
  private void pipe(Socket from, Socket to, AtomicInteger directions) {
    Thread t =
        new Thread(
            () -> {
              boolean clean = false;
              try {
                from.getInputStream().transferTo(to.getOutputStream());
                to.shutdownOutput();
                clean = true;
              } catch (IOException e) {
                // a side reset or closed: the connection is over
              } finally {
                if (directions.decrementAndGet() == 0 || !clean) {
                  open.remove(from);
                  open.remove(to);
                  closeQuietly(from);
                  closeQuietly(to);
                }
              }
            },
            "service-proxy-pipe");
    t.setDaemon(true);
    t.start();
  }

  private static void closeQuietly(Socket s) {
    try {
      s.close();
    } catch (IOException e) {
      // closing
    }
  }

  @Override
  public void close() throws IOException {
    server.close();
    open.forEach(ServiceProxy::closeQuietly);
  }
}
