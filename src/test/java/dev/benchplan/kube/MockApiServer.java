package dev.benchplan.kube;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.CustomResourceDefinitionContext;
import io.fabric8.kubernetes.client.server.mock.CustomResourceAware;
import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMixedDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.kubernetes.client.server.mock.Resetable;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import io.fabric8.mockwebserver.ServerRequest;
import io.fabric8.mockwebserver.ServerResponse;
import io.fabric8.mockwebserver.http.Dispatcher;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;
import io.fabric8.mockwebserver.http.Response;
import io.fabric8.mockwebserver.http.WebSocket;
import io.fabric8.mockwebserver.http.WebSocketListener;
import java.lang.reflect.Field;
import java.util.HashMap;
import java.util.Map;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.ReadWriteLock;
import java.util.function.Consumer;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * The fabric8 mock API server in CRUD mode, as {@code @EnableKubernetesMockClient(crud = true,
 * https = false)} sets it up (fields of type {@link KubernetesMockServer} and {@link
 * KubernetesClient} are filled before each test, closed after it), without the stall its watches
 * can cause.
 *
 * <p>The stall (fabric8 mockwebserver 8.0.0): when a client closes a watch while an event for it is
 * being sent, the server's {@code WatchEventsListener.onClosed} runs on the server's only Vert.x
 * event loop and waits (up to a minute) for the watch's send thread, which waits (up to 30 s) for
 * the same event loop to complete its write. For those 30 s the server answers nothing: every
 * request times out. A CI run lost {@code KubeRunServiceTest.existingJob} to it (the cleanup's
 * DELETEs timed out after 10 s each). A stress loop (open and close a watch while another thread
 * edits the watched object, then GET it; up to 3,000 rounds) hung the stock server in each of 3
 * runs, a thread dump showing the two threads waiting on each other; with this class, 3 runs of
 * 3,000 rounds answered every GET within 50 ms. Here each watch's listener hands {@code onClosed}
 * and {@code onFailure} to a thread of its own, so the event loop never waits; that thread first
 * takes the watch off the dispatcher's list, so no write hands an event to a closing watch (see
 * {@link ClosesOffLoop}).
 */
public final class MockApiServer implements BeforeEachCallback, AfterEachCallback {
  // the mock web server logs every request through java.util.logging; keep test output readable
  // (held here: java.util.logging keeps loggers weakly, and a collected one forgets its level)
  private static final java.util.logging.Logger MOCK_LOG =
      java.util.logging.Logger.getLogger("io.fabric8.mockwebserver");

  static {
    MOCK_LOG.setLevel(java.util.logging.Level.WARNING);
  }

  private static final ExtensionContext.Namespace NS =
      ExtensionContext.Namespace.create(MockApiServer.class);

  /**
   * A started CRUD-mode server whose watches close off the event loop. Its JSON mapper is the one
   * fabric8's own extension gives the server (deprecated for clients, not for the mock).
   */
  @SuppressWarnings("deprecation")
  public static KubernetesMockServer start() {
    Map<ServerRequest, Queue<ServerResponse>> responses = new HashMap<>();
    return start(responses, new ClosesOffLoop(new KubernetesMixedDispatcher(responses)));
  }

  /**
   * A started server answering through {@code dispatcher}, which answers from {@code responses}.
   */
  @SuppressWarnings("deprecation")
  static KubernetesMockServer start(
      Map<ServerRequest, Queue<ServerResponse>> responses, ClosesOffLoop dispatcher) {
    KubernetesMockServer server =
        new KubernetesMockServer(
            new Context(Serialization.jsonMapper()),
            new MockWebServer(),
            responses,
            dispatcher,
            false);
    server.init();
    return server;
  }

  @Override
  public void beforeEach(ExtensionContext context) throws IllegalAccessException {
    KubernetesMockServer server = start();
    KubernetesClient client = server.createClient();
    context.getStore(NS).put("server", server);
    context.getStore(NS).put("client", client);
    Object test = context.getRequiredTestInstance();
    for (Class<?> c = test.getClass(); c != Object.class; c = c.getSuperclass()) {
      for (Field f : c.getDeclaredFields()) {
        if (java.lang.reflect.Modifier.isStatic(f.getModifiers())) {
          continue;
        }
        if (f.getType() == KubernetesMockServer.class) {
          f.setAccessible(true);
          f.set(test, server);
        } else if (f.getType() == KubernetesClient.class) {
          f.setAccessible(true);
          f.set(test, client);
        }
      }
    }
  }

  @Override
  public void afterEach(ExtensionContext context) {
    KubernetesClient client = context.getStore(NS).remove("client", KubernetesClient.class);
    KubernetesMockServer server = context.getStore(NS).remove("server", KubernetesMockServer.class);
    if (client != null) {
      client.close();
    }
    if (server != null) {
      server.destroy();
    }
  }

  /**
   * Dispatches as {@code delegate} does; a watch's listener closes on a thread of its own, after it
   * has left the dispatcher's list of watches.
   *
   * <p>Why it must leave first: fabric8's {@code WatchEventsListener.onClosed} shuts its send
   * executor down, waits, and only then leaves the list. Once that runs off the event loop, a write
   * that arrives in between finds the listener still listed, hands it the event, and its executor
   * refuses it: the {@code RejectedExecutionException} escapes the dispatcher, the write (already
   * stored) is never answered and its client times out after 10 s. Seen in CI and reproduced here
   * ({@code KubeRunServiceTest}, one run in three under load, the Job-status PATCH). Leaving the
   * list under the dispatcher's write lock, which every write holds while it hands out its events,
   * means a later write never sees the listener and an earlier one has handed its event to a live
   * executor. The lock and the list are the dispatcher's private fields (fabric8 8.0.0, a test
   * dependency pinned in the pom): read once here, and a change in them fails every test that
   * starts a server, loudly.
   */
  static final class ClosesOffLoop extends Dispatcher implements Resetable, CustomResourceAware {
    private final KubernetesMixedDispatcher delegate;
    private final Lock writeLock;
    private final Set<?> watches;

    ClosesOffLoop(KubernetesMixedDispatcher delegate) {
      this.delegate = delegate;
      try {
        Object crud =
            field(KubernetesMixedDispatcher.class, "kubernetesCrudDispatcher").get(delegate);
        this.writeLock =
            ((ReadWriteLock) field(KubernetesCrudDispatcher.class, "lock").get(crud)).writeLock();
        this.watches =
            (Set<?>) field(KubernetesCrudDispatcher.class, "watchEventListeners").get(crud);
      } catch (ReflectiveOperationException | ClassCastException e) {
        throw new IllegalStateException(
            "the fabric8 mock server changed: its CRUD dispatcher's lock or list of watches is not"
                + " where MockApiServer expects them; re-check the stall it works around",
            e);
      }
    }

    private static Field field(Class<?> owner, String name) throws NoSuchFieldException {
      Field f = owner.getDeclaredField(name);
      f.setAccessible(true);
      return f;
    }

    /** Takes {@code listener} off the list of watches that writes send their events to. */
    void detach(WebSocketListener listener) {
      writeLock.lock();
      try {
        watches.remove(listener);
      } finally {
        writeLock.unlock();
      }
    }

    /** The watches writes send their events to now. */
    int watchCount() {
      return watches.size();
    }

    @Override
    public MockResponse dispatch(RecordedRequest request) {
      MockResponse response = delegate.dispatch(request);
      WebSocketListener listener = response.getWebSocketListener();
      return listener == null
          ? response
          : response.withWebSocketUpgrade(new OffLoop(listener, this::detach));
    }

    @Override
    public void shutdown() {
      delegate.shutdown();
    }

    @Override
    public void releaseResources() {
      delegate.releaseResources();
    }

    @Override
    public void reset() {
      delegate.reset();
    }

    @Override
    public void expectCustomResource(CustomResourceDefinitionContext rdc) {
      delegate.expectCustomResource(rdc);
    }
  }

  /**
   * {@code delegate}, with {@code onClosed} and {@code onFailure} run off the calling thread, each
   * after {@code detach} has taken the delegate off the list of watches.
   */
  static final class OffLoop extends WebSocketListener {
    private static final ExecutorService CLOSERS =
        Executors.newCachedThreadPool(
            r -> {
              Thread t = new Thread(r, "mock-watch-close");
              t.setDaemon(true);
              return t;
            });

    private final WebSocketListener delegate;
    private final Consumer<WebSocketListener> detach;

    OffLoop(WebSocketListener delegate, Consumer<WebSocketListener> detach) {
      this.delegate = delegate;
      this.detach = detach;
    }

    @Override
    public void onBeforeAccept(WebSocket webSocket, Response response) {
      delegate.onBeforeAccept(webSocket, response);
    }

    @Override
    public void onOpen(WebSocket webSocket, Response response) {
      delegate.onOpen(webSocket, response);
    }

    @Override
    public void onMessage(WebSocket webSocket, String text) {
      delegate.onMessage(webSocket, text);
    }

    @Override
    public void onMessage(WebSocket webSocket, byte[] bytes) {
      delegate.onMessage(webSocket, bytes);
    }

    @Override
    public void onPing(WebSocket webSocket, byte[] bytes) {
      delegate.onPing(webSocket, bytes);
    }

    @Override
    public void onClosing(WebSocket webSocket, int code, String reason) {
      delegate.onClosing(webSocket, code, reason);
    }

    @Override
    public void onClosed(WebSocket webSocket, int code, String reason) {
      CLOSERS.execute(
          () -> {
            detach.accept(delegate);
            delegate.onClosed(webSocket, code, reason);
          });
    }

    @Override
    public void onFailure(WebSocket webSocket, Throwable t, Response response) {
      CLOSERS.execute(
          () -> {
            detach.accept(delegate);
            delegate.onFailure(webSocket, t, response);
          });
    }
  }
}
