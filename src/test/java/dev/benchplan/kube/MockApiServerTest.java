package dev.benchplan.kube;

import static org.assertj.core.api.Assertions.assertThat;

import dev.benchplan.testing.Await;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.http.WebSocket;
import io.fabric8.mockwebserver.http.WebSocketListener;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(MockApiServer.class)
class MockApiServerTest {
  KubernetesMockServer server;
  KubernetesClient client;

  @Test
  @DisplayName(
      "a watch's onClosed runs off the event loop: the caller returns while it still waits")
  void closesOffTheCallingThread() throws Exception {
    CountDownLatch entered = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    List<String> calls = new CopyOnWriteArrayList<>();
    WebSocketListener blocking =
        new WebSocketListener() {
          @Override
          public void onClosed(WebSocket webSocket, int code, String reason) {
            calls.add("closed " + code + " " + reason + " on " + Thread.currentThread().getName());
            entered.countDown();
            try {
              // what fabric8's WatchEventsListener does: wait for its send thread
              release.await(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
              Thread.currentThread().interrupt();
            }
          }
        };
    String caller = Thread.currentThread().getName();
    new MockApiServer.OffLoop(blocking, l -> calls.add(l == blocking ? "detached" : "other"))
        .onClosed(null, 1000, "bye");
    // returned although the delegate has not been released
    assertThat(entered.await(10, TimeUnit.SECONDS)).isTrue();
    assertThat(release.getCount()).isEqualTo(1);
    release.countDown();
    // off the list of watches first, then closed (fabric8's onClosed stops the executor that a
    // write still finding the watch listed would hand its event to)
    assertThat(calls).hasSize(2);
    assertThat(calls.get(0)).isEqualTo("detached");
    assertThat(calls.get(1)).startsWith("closed 1000 bye on ").doesNotEndWith(caller);
  }

  @Test
  @DisplayName("a watch that fails leaves the list of watches before its onFailure runs")
  void failsAfterDetaching() throws Exception {
    List<String> calls = new CopyOnWriteArrayList<>();
    CountDownLatch failed = new CountDownLatch(1);
    WebSocketListener delegate =
        new WebSocketListener() {
          @Override
          public void onFailure(
              WebSocket webSocket, Throwable t, io.fabric8.mockwebserver.http.Response response) {
            calls.add("failed " + t.getMessage());
            failed.countDown();
          }
        };
    new MockApiServer.OffLoop(delegate, l -> calls.add(l == delegate ? "detached" : "other"))
        .onFailure(null, new IllegalStateException("reset"), null);
    assertThat(failed.await(10, TimeUnit.SECONDS)).isTrue();
    assertThat(calls).containsExactly("detached", "failed reset");
  }

  @Test
  @DisplayName(
      "a real watch, closed by its client, leaves the dispatcher's list; writes keep being answered")
  void closedWatchLeavesTheList() throws Exception {
    var responses =
        new java.util.HashMap<
            io.fabric8.mockwebserver.ServerRequest,
            java.util.Queue<io.fabric8.mockwebserver.ServerResponse>>();
    MockApiServer.ClosesOffLoop dispatcher =
        new MockApiServer.ClosesOffLoop(
            new io.fabric8.kubernetes.client.server.mock.KubernetesMixedDispatcher(responses));
    KubernetesMockServer own = MockApiServer.start(responses, dispatcher);
    try (KubernetesClient c = own.createClient()) {
      c.configMaps()
          .inNamespace("ns")
          .resource(new ConfigMapBuilder().withNewMetadata().withName("cm").endMetadata().build())
          .create();
      for (int round = 0; round < 5; round++) {
        var watch =
            c.configMaps()
                .inNamespace("ns")
                .withName("cm")
                .watch(
                    new Watcher<ConfigMap>() {
                      @Override
                      public void eventReceived(Action action, ConfigMap resource) {}

                      @Override
                      public void onClose(WatcherException cause) {}
                    });
        awaitWatches(dispatcher, 1);
        watch.close();
        awaitWatches(dispatcher, 0);
        int n = round;
        c.configMaps()
            .inNamespace("ns")
            .withName("cm")
            .edit(m -> new ConfigMapBuilder(m).addToData("round", Integer.toString(n)).build());
      }
      assertThat(c.configMaps().inNamespace("ns").withName("cm").get().getData())
          .containsEntry("round", "4");
    } finally {
      own.destroy();
    }
  }

  private static void awaitWatches(MockApiServer.ClosesOffLoop d, int n) {
    Await.until(
        n + " watch(es) listed by the mock server",
        Duration.ofSeconds(10),
        () -> d.watchCount() == n);
  }

  @Test
  @DisplayName("the server keeps CRUD, watches and expectations: fields filled, events delivered")
  void crudAndWatches() throws Exception {
    assertThat(server).isNotNull();
    assertThat(client).isNotNull();
    AccessReviews reviews = AccessReviews.install(server, "delete jobs.batch ns"::equals);
    List<String> events = new CopyOnWriteArrayList<>();
    CountDownLatch modified = new CountDownLatch(1);
    client
        .configMaps()
        .inNamespace("ns")
        .resource(new ConfigMapBuilder().withNewMetadata().withName("cm").endMetadata().build())
        .create();
    var watch =
        client
            .configMaps()
            .inNamespace("ns")
            .watch(
                new Watcher<ConfigMap>() {
                  @Override
                  public void eventReceived(Action action, ConfigMap resource) {
                    events.add(action + " " + resource.getMetadata().getName());
                    if (action == Action.MODIFIED) {
                      modified.countDown();
                    }
                  }

                  @Override
                  public void onClose(WatcherException cause) {}
                });
    client
        .configMaps()
        .inNamespace("ns")
        .withName("cm")
        .edit(c -> new ConfigMapBuilder(c).addToData("k", "v").build());
    assertThat(modified.await(10, TimeUnit.SECONDS)).as("events %s", events).isTrue();
    watch.close();
    // the server answers at once after the watch closed, and keeps the edit
    assertThat(client.configMaps().inNamespace("ns").withName("cm").get().getData())
        .containsEntry("k", "v");
    // expectations answer before the CRUD store does
    ClusterAccess access = ClusterAccess.of(client);
    assertThat(access.allowed("delete", "batch", "jobs", null, "ns", null)).isFalse();
    assertThat(access.allowed("get", "batch", "jobs", null, "ns", null)).isTrue();
    assertThat(reviews.asked()).containsExactly("delete jobs.batch ns", "get jobs.batch ns");
  }
}
