package dev.h2beam.adapters.llm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.h2beam.adapters.config.Endpoint;
import java.io.BufferedReader;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The relay's own HTTP/1.1: requests read whole, however their body comes, and replies a client can read. */
class RelayWireTest {
  private static RelayWire.Request read(String wire, ByteArrayOutputStream out) throws IOException {
    return RelayWire.read(new ByteArrayInputStream(wire.getBytes(StandardCharsets.ISO_8859_1)), out, 1 << 20);
  }

  @Test
  void aBodyIsReadByItsLengthOrInChunksAndAContinueIsSentFirstWhenAskedFor() throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    RelayWire.Request r = read("POST /v1/chat/completions?x=1 HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\n"
        + "Authorization: Bearer k\r\n\r\nhelloGET", out);
    assertEquals("POST", r.method());
    assertEquals("/v1/chat/completions", r.path());
    assertEquals("/v1/chat/completions?x=1", r.target());
    assertEquals("hello", new String(r.body(), StandardCharsets.UTF_8));
    assertEquals("Bearer k", r.header("authorization"), "header names in any case");
    assertTrue(r.keepAlive());
    assertEquals("", out.toString(StandardCharsets.ISO_8859_1), "no continue unless asked");

    r = read("POST /v1/responses HTTP/1.1\r\nTransfer-Encoding: chunked\r\nExpect: 100-continue\r\n"
        + "Connection: close\r\n\r\n4;ext=1\r\n{\"a\"\r\n3\r\n: 1\r\n1\r\n}\r\n0\r\nX-Trailer: t\r\n\r\n", out);
    assertEquals("{\"a\": 1}", new String(r.body(), StandardCharsets.UTF_8));
    assertEquals("HTTP/1.1 100 Continue\r\n\r\n", out.toString(StandardCharsets.ISO_8859_1));
    assertFalse(r.keepAlive());

    assertNull(read("", out), "a connection closed between requests");
    assertFalse(read("GET /v1/models HTTP/1.0\r\n\r\n", out).keepAlive(), "HTTP/1.0 closes unless asked not to");
  }

  @Test
  void aMalformedOrOversizedRequestIsRefusedWithItsStatus() {
    for (String[] c : new String[][] {
        {"400", "GARBAGE\r\n\r\n"},
        {"400", "GET http://elsewhere/v1 HTTP/1.1\r\n\r\n"},
        {"400", "POST /v1 HTTP/1.1\r\nContent-Length: ten\r\n\r\n"},
        {"400", "POST /v1 HTTP/1.1\r\nno colon here\r\n\r\n"},
        {"400", "POST /v1 HTTP/1.1\r\nContent-Length: 2\r\nContent-Length: 20\r\n\r\nab"},
        {"400", "POST /v1 HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n"},
        {"413", "POST /v1 HTTP/1.1\r\nContent-Length: 2097152\r\n\r\n"},
        {"413", "POST /v1 HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n200001\r\n"},
        {"431", "GET /" + "a".repeat(RelayWire.MAX_HEAD_BYTES) + " HTTP/1.1\r\n\r\n"}}) {
      RelayWire.BadRequest e = assertThrows(RelayWire.BadRequest.class, () -> read(c[1], new ByteArrayOutputStream()),
          c[1].substring(0, Math.min(40, c[1].length())));
      assertEquals(Integer.parseInt(c[0]), e.status, e.getMessage());
    }
    // what the refusal says goes back to the CLI, which may log it: a key in the request is never echoed
    for (String keyed : List.of("GET /v1?key=sk-secret HTTP/2\r\n\r\n",
        "POST /v1 HTTP/1.1\r\nAuthorization Bearer sk-secret\r\n\r\n",
        "POST /v1 HTTP/1.1\r\nContent-Length: sk-secret\r\n\r\n",
        "POST /v1 HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\nsk-secret\r\n")) {
      RelayWire.BadRequest e = assertThrows(RelayWire.BadRequest.class, () -> read(keyed,
          new ByteArrayOutputStream()));
      assertFalse(e.getMessage().contains("sk-secret"), e.getMessage());
    }
    assertThrows(java.io.EOFException.class, () -> read("POST /v1 HTTP/1.1\r\nContent-Length: 9\r\n\r\nshort",
        new ByteArrayOutputStream()), "a client that left mid-body");
  }

  /**
   * Over a real connection to a relay: a chunked request asking for a continue, then a second request on the same
   * connection; both reach the model with their bodies whole, and both replies come back readable.
   */
  @Test
  void twoRequestsOnOneKeptAliveConnectionAreBothRelayed() throws Exception {
    try (ScriptedModelServer server = ScriptedModelServer.start(ScriptedModelServer.Brain.saying("relayed"));
        EndpointProxy relay = EndpointProxy.open(new Endpoint("wire", server.baseUrl(), "", 2, 30, 1, 0, 0, 0, 0),
            null)) {
      URI base = URI.create(relay.baseUrl());
      String chat = "{\"model\": \"m\", \"messages\": [{\"role\": \"user\", \"content\": \"hi\"}]}";
      try (Socket s = new Socket(InetAddress.getLoopbackAddress(), base.getPort())) {
        OutputStream out = s.getOutputStream();
        BufferedReader in = new BufferedReader(new InputStreamReader(s.getInputStream(), StandardCharsets.UTF_8));
        out.write(("POST " + base.getPath() + "/chat/completions HTTP/1.1\r\nHost: x\r\nContent-Type: application/json"
            + "\r\nExpect: 100-continue\r\nTransfer-Encoding: chunked\r\n\r\n").getBytes(StandardCharsets.UTF_8));
        out.flush();
        assertEquals("HTTP/1.1 100 Continue", in.readLine());
        assertEquals("", in.readLine());
        byte[] body = chat.getBytes(StandardCharsets.UTF_8);
        out.write((Integer.toHexString(body.length) + "\r\n").getBytes(StandardCharsets.UTF_8));
        out.write(body);
        out.write("\r\n0\r\n\r\n".getBytes(StandardCharsets.UTF_8));
        out.flush();
        assertTrue(reply(in).contains("relayed"));
        out.write(("POST " + base.getPath() + "/chat/completions HTTP/1.1\r\nHost: x\r\nContent-Length: "
            + body.length + "\r\n\r\n" + chat).getBytes(StandardCharsets.UTF_8));
        out.flush();
        assertTrue(reply(in).contains("relayed"));
      }
      assertEquals(2, server.requests().size());
      for (ScriptedModelServer.Request r : server.requests()) assertEquals("hi",
          r.body().path("messages").get(0).path("content").asText(), r.rawBody());
    }
  }

  /** One chunked reply read off the connection: its status must be 200; returns its body. */
  private static String reply(BufferedReader in) throws IOException {
    assertEquals("HTTP/1.1 200 OK", in.readLine());
    List<String> headers = new ArrayList<>();
    for (String h; !(h = in.readLine()).isEmpty(); ) headers.add(h.toLowerCase());
    assertTrue(headers.contains("transfer-encoding: chunked"), headers.toString());
    StringBuilder body = new StringBuilder();
    for (int n; (n = Integer.parseInt(in.readLine().strip(), 16)) > 0; ) {
      char[] chunk = new char[n];
      int got = 0;
      while (got < n) got += in.read(chunk, got, n - got);
      body.append(chunk);
      assertEquals("", in.readLine());
    }
    assertEquals("", in.readLine());
    return body.toString();
  }
}
