package dev.keyhaven.server.http;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * One HTTP/1.1 request as bytes on the wire, built field by field so that any of them can be wrong: the request line,
 * headers in order (repeated ones too, any bytes in them), and the body with its framing, which may lie.
 */
final class RawRequest {
    /** How the body is delimited. */
    enum Framing {
        /** A correct Content-Length header. */
        CONTENT_LENGTH,
        /** Whatever headers the request carries, and the body bytes as they are. */
        AS_GIVEN
    }

    private final String description;
    private String requestLine;
    private final List<byte[]> headers = new ArrayList<>();
    private byte[] body = new byte[0];
    private Framing framing = Framing.CONTENT_LENGTH;
    private boolean head;

    RawRequest(String description, String method, String target) {
        this.description = description;
        this.requestLine = method + " " + target + " HTTP/1.1";
        this.head = method.equals("HEAD");
    }

    String description() {
        return description;
    }

    /** Whether the response to this request has no body whatever its headers say (HEAD). */
    boolean isHead() {
        return head;
    }

    RawRequest requestLine(String line) {
        this.requestLine = line;
        this.head = line.startsWith("HEAD ");
        return this;
    }

    RawRequest header(String name, String value) {
        return header((name + ": " + value).getBytes(StandardCharsets.UTF_8));
    }

    /** A header line exactly as given (without the CRLF), valid or not. */
    RawRequest header(byte[] line) {
        headers.add(line);
        return this;
    }

    RawRequest body(byte[] bytes, Framing framing) {
        this.body = bytes;
        this.framing = framing;
        return this;
    }

    byte[] body() {
        return body;
    }

    byte[] bytes(String host) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes((requestLine + "\r\nHost: " + host + "\r\n").getBytes(StandardCharsets.ISO_8859_1));
        for (byte[] line : headers) {
            out.writeBytes(line);
            out.writeBytes(CRLF);
        }
        if (framing == Framing.CONTENT_LENGTH) {
            out.writeBytes(("Content-Length: " + body.length + "\r\n").getBytes(StandardCharsets.ISO_8859_1));
        }
        out.writeBytes(CRLF);
        out.writeBytes(body);
        return out.toByteArray();
    }

    private static final byte[] CRLF = {'\r', '\n'};
}
