import com.sun.net.httpserver.HttpServer;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;

/**
 * Counts the POSTs that fail before any byte of a reply comes back when the JDK's HttpServer closes idle connections
 * while the JDK's HttpClient reuses them: N calls, each after a random pause between LO and HI ms, against a server
 * whose idle interval is set just under the pause. It prints each failure and, at the end, the failures and how many
 * connections the server saw (fewer than the calls: connections were reused). As a source file:
 *   java -Dsun.net.httpserver.idleInterval=2 -Dsun.net.httpserver.clockTick=20 scripts/HttpIdleRace.java 140 1990 2060
 * and the same with -Djdk.httpclient.keepalive.timeout=1, for a client that keeps idle connections 1 s only.
 */
public class HttpIdleRace {
  public static void main(String[] args) throws Exception {
    Set<Integer> ports = ConcurrentHashMap.newKeySet();
    HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext("/", ex -> {
      ports.add(ex.getRemoteAddress().getPort());
      ex.getRequestBody().readAllBytes();
      byte[] body = "ok".getBytes();
      ex.sendResponseHeaders(200, body.length);
      ex.getResponseBody().write(body);
      ex.close();
    });
    server.setExecutor(Executors.newCachedThreadPool());
    server.start();
    HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    URI uri = URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/");
    int calls = Integer.parseInt(args[0]);
    long lo = Long.parseLong(args[1]);
    long hi = Long.parseLong(args[2]);
    Random random = new Random(1);
    int failed = 0;
    for (int i = 0; i < calls; i++) {
      Thread.sleep(lo + (long) (random.nextDouble() * (hi - lo)));
      try {
        client.send(HttpRequest.newBuilder(uri).POST(HttpRequest.BodyPublishers.ofString("x")).build(),
            HttpResponse.BodyHandlers.ofString());
      } catch (java.io.IOException e) {
        failed++;
        System.out.println("call " + i + ": " + e);
      }
    }
    System.out.println("failed " + failed + " of " + calls + "; connections " + ports.size());
    server.stop(0);
    System.exit(0);
  }
}
