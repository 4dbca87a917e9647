package dev.h2beam.adapters.llm;

import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * HTTP/1.1 as the {@link EndpointProxy} speaks it with an agent CLI on loopback: a request read whole (its head, then
 * its body by {@code Content-Length} or chunked), and a reply written as a status line, headers and a chunked body
 * flushed piece by piece. The relay reads the connection itself, rather than through the JDK's HTTP server, so that it
 * sees a client leave while its call still waits for its turn (the JDK's server does not tell) and drops the call
 * instead of sending a request nobody will read.
 */
final class RelayWire {
  private RelayWire() {}

  /** The longest request head (request line and headers) read. */
  static final int MAX_HEAD_BYTES = 64 << 10;

  /** A malformed request: answered 400 (or 413, 431) and the connection closed. */
  static final class BadRequest extends IOException {
    final int status;

    BadRequest(int status, String message) {
      super(message);
      this.status = status;
    }
  }

  /** One request: its method, target (path and query as sent), version, headers in order, and body. */
  record Request(String method, String target, String version, List<Map.Entry<String, String>> headers,
      byte[] body) {

    /** The first value of a header (its name in any case), or null. */
    String header(String name) {
      for (Map.Entry<String, String> h : headers) {
        if (h.getKey().equalsIgnoreCase(name)) return h.getValue();
      }
      return null;
    }

    /** The target's path, without its query. */
    String path() {
      int q = target.indexOf('?');
      return q < 0 ? target : target.substring(0, q);
    }

    /** Whether the connection stays open after the reply (HTTP/1.1 unless the client said close). */
    boolean keepAlive() {
      String c = header("Connection");
      String tokens = c == null ? "" : c.toLowerCase(Locale.ROOT);
      if (version.equals("HTTP/1.0")) return tokens.contains("keep-alive");
      return !tokens.contains("close");
    }
  }

  /**
   * Reads the next request from {@code in}; null when the client closed the connection before sending one (between
   * requests). A request that asks for {@code 100-continue} is told to go on through {@code out} before its body is
   * read. A body over {@code maxBody} bytes is a 413, a malformed request a 400.
   */
  static Request read(InputStream in, OutputStream out, int maxBody) throws IOException {
    List<String> lines = head(in);
    if (lines == null) return null;
    String[] start = lines.get(0).split(" ", 3);
    if (start.length != 3 || !start[2].startsWith("HTTP/1.") || !start[1].startsWith("/")) {
      // not echoed: a request line or header may carry the key (a query parameter, an Authorization header), and the
      // CLI may write the answer into its event log
      throw new BadRequest(400, "the request line is not an HTTP/1.x request for a path on this relay");
    }
    List<Map.Entry<String, String>> headers = new ArrayList<>();
    for (int i = 1; i < lines.size(); i++) {
      String line = lines.get(i);
      int colon = line.indexOf(':');
      if (colon <= 0) throw new BadRequest(400, "header line " + i + " has no name and colon");
      headers.add(Map.entry(line.substring(0, colon).strip(), line.substring(colon + 1).strip()));
    }
    Request r = new Request(start[0], start[1], start[2], List.copyOf(headers), new byte[0]);
    String te = r.header("Transfer-Encoding");
    String length = r.header("Content-Length");
    for (Map.Entry<String, String> h : headers) {
      // two lengths that disagree leave the body's end unknown (RFC 9112 6.3): refused, never guessed
      if (h.getKey().equalsIgnoreCase("Content-Length") && !h.getValue().equals(length)) {
        throw new BadRequest(400, "the request has Content-Length headers that disagree");
      }
    }
    boolean chunked = te != null && te.toLowerCase(Locale.ROOT).contains("chunked");
    long n = 0;
    if (!chunked && length != null) {
      try {
        n = Long.parseLong(length.strip());
      } catch (NumberFormatException e) {
        throw new BadRequest(400, "Content-Length is not a number");
      }
      if (n < 0) throw new BadRequest(400, "Content-Length is negative: " + n);
      if (n > maxBody) throw new BadRequest(413, "the request is larger than the relay's " + (maxBody >> 20) + " MiB");
    }
    if ("100-continue".equalsIgnoreCase(r.header("Expect"))) {
      out.write("HTTP/1.1 100 Continue\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1));
      out.flush();
    }
    byte[] body = chunked ? chunked(in, maxBody) : in.readNBytes((int) n);
    if (body.length < n) throw new EOFException("the client left while sending its request body");
    return new Request(r.method(), r.target(), r.version(), r.headers(), body);
  }

  /** The head's lines (request line first), without the blank line ending it; null at end of stream before it. */
  private static List<String> head(InputStream in) throws IOException {
    List<String> lines = new ArrayList<>();
    ByteArrayOutputStream line = new ByteArrayOutputStream();
    int total = 0;
    while (true) {
      int b = in.read();
      if (b < 0) {
        if (lines.isEmpty() && line.size() == 0) return null;
        throw new EOFException("the client left while sending its request head");
      }
      if (++total > MAX_HEAD_BYTES) throw new BadRequest(431, "the request head is over " + MAX_HEAD_BYTES + " bytes");
      if (b != '\n') {
        line.write(b);
        continue;
      }
      String text = line.toString(StandardCharsets.ISO_8859_1);
      if (text.endsWith("\r")) text = text.substring(0, text.length() - 1);
      line.reset();
      if (text.isEmpty()) {
        if (lines.isEmpty()) continue; // blank lines before a request line are ignored (RFC 9112 2.2)
        return lines;
      }
      lines.add(text);
    }
  }

  /** A chunked body, decoded; its trailers are read and left. */
  private static byte[] chunked(InputStream in, int maxBody) throws IOException {
    ByteArrayOutputStream body = new ByteArrayOutputStream();
    while (true) {
      String size = line(in);
      int semi = size.indexOf(';');
      long n;
      try {
        n = Long.parseLong((semi < 0 ? size : size.substring(0, semi)).strip(), 16);
      } catch (NumberFormatException e) {
        throw new BadRequest(400, "a chunk's size line is not a hexadecimal number");
      }
      if (n < 0 || body.size() + n > maxBody) {
        throw new BadRequest(413, "the request is larger than the relay's " + (maxBody >> 20) + " MiB");
      }
      if (n == 0) {
        while (!line(in).isEmpty()) {
          // a trailer: not relayed
        }
        return body.toByteArray();
      }
      byte[] chunk = in.readNBytes((int) n);
      if (chunk.length < n) throw new EOFException("the client left while sending its request body");
      body.write(chunk);
      if (!line(in).isEmpty()) throw new BadRequest(400, "a chunk not followed by its line end");
    }
  }

  private static String line(InputStream in) throws IOException {
    ByteArrayOutputStream line = new ByteArrayOutputStream();
    for (int b; (b = in.read()) != '\n'; ) {
      if (b < 0) throw new EOFException("the client left while sending its request body");
      if (line.size() > MAX_HEAD_BYTES) throw new BadRequest(400, "a chunk line over " + MAX_HEAD_BYTES + " bytes");
      line.write(b);
    }
    String text = line.toString(StandardCharsets.ISO_8859_1);
    return text.endsWith("\r") ? text.substring(0, text.length() - 1) : text;
  }

  /**
   * Writes a reply's status line and headers; with {@code body} the body follows chunked ({@link Chunked}), else
   * none does (a reply to HEAD, a 204 or a 304).
   */
  static void head(OutputStream out, int status, Map<String, List<String>> headers, boolean body, boolean keepAlive)
      throws IOException {
    StringBuilder sb = new StringBuilder("HTTP/1.1 ").append(status).append(' ').append(reason(status))
        .append("\r\n");
    headers.forEach((name, values) -> {
      for (String v : values) sb.append(name).append(": ").append(v).append("\r\n");
    });
    if (body) sb.append("Transfer-Encoding: chunked\r\n");
    else if (status != 204 && status != 304) sb.append("Content-Length: 0\r\n");
    if (!keepAlive) sb.append("Connection: close\r\n");
    sb.append("\r\n");
    out.write(sb.toString().getBytes(StandardCharsets.ISO_8859_1));
  }

  /** A reply body in chunks: each write is one chunk, sent at once; close ends the body, not the connection. */
  static final class Chunked extends OutputStream {
    private final OutputStream out;
    private boolean ended;

    Chunked(OutputStream out) {
      this.out = out;
    }

    @Override public void write(int b) throws IOException {
      write(new byte[] {(byte) b}, 0, 1);
    }

    @Override public void write(byte[] b, int off, int len) throws IOException {
      if (len == 0) return;
      out.write((Integer.toHexString(len) + "\r\n").getBytes(StandardCharsets.ISO_8859_1));
      out.write(b, off, len);
      out.write(CRLF);
      out.flush();
    }

    @Override public void close() throws IOException {
      if (ended) return;
      ended = true;
      out.write(LAST_CHUNK);
      out.flush();
    }
  }

  private static final byte[] CRLF = {'\r', '\n'};
  private static final byte[] LAST_CHUNK = "0\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1);

  private static String reason(int status) {
    return switch (status) {
      case 200 -> "OK";
      case 201 -> "Created";
      case 202 -> "Accepted";
      case 204 -> "No Content";
      case 304 -> "Not Modified";
      case 400 -> "Bad Request";
      case 401 -> "Unauthorized";
      case 403 -> "Forbidden";
      case 404 -> "Not Found";
      case 408 -> "Request Timeout";
      case 409 -> "Conflict";
      case 413 -> "Content Too Large";
      case 422 -> "Unprocessable Content";
      case 429 -> "Too Many Requests";
      case 431 -> "Request Header Fields Too Large";
      case 500 -> "Internal Server Error";
      case 502 -> "Bad Gateway";
      case 503 -> "Service Unavailable";
      case 504 -> "Gateway Timeout";
      default -> "Status " + status;
    };
  }
}
