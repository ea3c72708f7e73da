package dev.keyhaven.server.http;

import dev.keyhaven.client.Stamper;
import dev.keyhaven.server.http.RawRequest.Framing;
import java.io.ByteArrayOutputStream;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.function.Supplier;

/**
 * Hostile requests from valid ones, drawn from a seeded {@link Random} so that a run can be repeated: bodies of
 * stamped requests mutated (and stamped again, so that they reach the parsers), nasty JSON values (NUL, lone
 * surrogates, invalid UTF-8, huge numbers, deep nesting), other encodings, header and framing abuse (missing,
 * repeated and oversized headers, bad stamps, chunked bodies that lie), other methods and paths, and the auth proxy's
 * routes. Every body carries {@link #marker}, which must never reach the server's log.
 */
final class RequestMutations {
    /** What a request is made from, by its kind; the name is the first part of each request's description. */
    enum Kind {
        VALID,
        BODY_BYTES_STAMPED,
        BODY_BYTES_UNSTAMPED,
        JSON_VALUE,
        ENCODING,
        HEADERS,
        CONTENT_LENGTH,
        CHUNKED,
        REQUEST_LINE,
        AUTH_PROXY
    }

    private static final String SUBMIT = "/public/v1/submit/";
    private static final String QUERY = "/public/v1/query/";
    private static final String ETHEREUM_TRANSFER =
            "02ef0180843b9aca00850ba43b7400825208945aaeb6053f3e94c9b9a09f33669" + "435e7ef1beaed880de0b6b3a764000080c0";

    private final Random random;
    private final Stamper stamper;
    private final String organizationId;
    private final String signWith;
    private final String proxyConfigId;
    private final String marker;

    RequestMutations(long seed, Stamper stamper, String organizationId, String signWith, String proxyConfigId) {
        this.random = new Random(seed);
        this.stamper = stamper;
        this.organizationId = organizationId;
        this.signWith = signWith;
        this.proxyConfigId = proxyConfigId;
        this.marker = "KHFUZZMARK" + Long.toHexString(seed);
    }

    /** The text placed in every body; it must not appear in any log line. */
    String marker() {
        return marker;
    }

    /** Whether the request goes to the auth proxy's listener rather than the API's. */
    static boolean forAuthProxy(RawRequest request) {
        return request.description().startsWith(Kind.AUTH_PROXY.name());
    }

    RawRequest next() {
        Kind kind = Kind.values()[random.nextInt(Kind.values().length)];
        return switch (kind) {
            case VALID -> {
                Template t = template();
                yield stamped(kind, t.name, t.path, t.json.getBytes(StandardCharsets.UTF_8));
            }
            case BODY_BYTES_STAMPED -> {
                Template t = template();
                yield stamped(kind, t.name + " " + mutationName, t.path, mutateBytes(t.json));
            }
            case BODY_BYTES_UNSTAMPED -> unstampedMutation(kind);
            case JSON_VALUE -> nastyValue(kind);
            case ENCODING -> otherEncoding(kind);
            case HEADERS -> headerAbuse(kind);
            case CONTENT_LENGTH -> lengthAbuse(kind);
            case CHUNKED -> chunkedAbuse(kind);
            case REQUEST_LINE -> requestLineAbuse(kind);
            case AUTH_PROXY -> authProxy(kind);
        };
    }

    // ---- bodies -----------------------------------------------------------------------------------------------

    private record Template(String name, String path, String json) {}

    private Template template() {
        String timestamp = Long.toString(System.currentTimeMillis());
        String envelope = "{\"type\":\"%s\",\"timestampMs\":\"" + timestamp + "\",\"organizationId\":\""
                + organizationId + "\",\"fuzzMarker\":\"" + marker + "\",\"parameters\":{\"fuzzMarker\":\"" + marker
                + "\",%s}}";
        String account = "{\"curve\":\"CURVE_SECP256K1\",\"pathFormat\":\"PATH_FORMAT_BIP32\",\"path\":"
                + "\"m/44'/60'/0'/0/0\",\"addressFormat\":\"ADDRESS_FORMAT_ETHEREUM\"}";
        return switch (random.nextInt(9)) {
            case 0 ->
                new Template(
                        "create_wallet",
                        SUBMIT + "create_wallet",
                        envelope.formatted(
                                "ACTIVITY_TYPE_CREATE_WALLET",
                                "\"walletName\":\"" + marker + "\",\"accounts\":[" + account + "]"));
            case 1 ->
                new Template(
                        "create_policies",
                        SUBMIT + "create_policies",
                        envelope.formatted(
                                "ACTIVITY_TYPE_CREATE_POLICIES",
                                "\"policies\":[{\"policyName\":\"" + marker + "\",\"effect\":"
                                        + "\"EFFECT_ALLOW\",\"condition\":\"activity.type == 'X'\",\"consensus\":"
                                        + "\"approvers.count() >= 1\",\"notes\":\"" + marker + "\"}]"));
            case 2 ->
                new Template(
                        "sign_raw_payload",
                        SUBMIT + "sign_raw_payload",
                        envelope.formatted(
                                "ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2",
                                "\"signWith\":\"" + signWith + "\",\"payload\":"
                                        + "\"68656c6c6f\",\"encoding\":\"PAYLOAD_ENCODING_HEXADECIMAL\",\"hashFunction\":"
                                        + "\"HASH_FUNCTION_KECCAK256\""));
            case 3 ->
                new Template(
                        "sign_transaction",
                        SUBMIT + "sign_transaction",
                        envelope.formatted(
                                "ACTIVITY_TYPE_SIGN_TRANSACTION_V2",
                                "\"signWith\":\"" + signWith + "\",\"type\":"
                                        + "\"TRANSACTION_TYPE_ETHEREUM\",\"unsignedTransaction\":\"" + ETHEREUM_TRANSFER
                                        + "\""));
            case 4 ->
                new Template(
                        "create_users",
                        SUBMIT + "create_users",
                        envelope.formatted(
                                "ACTIVITY_TYPE_CREATE_USERS_V3",
                                "\"users\":[{\"userName\":\"" + marker + "\",\"userEmail\":\""
                                        + "fuzz@example.com\",\"apiKeys\":[],"
                                        + "\"authenticators\":[],\"oauthProviders\":[],\"userTags\":[]}]"));
            case 5 ->
                new Template(
                        "create_sub_organization",
                        SUBMIT + "create_sub_organization",
                        envelope.formatted(
                                "ACTIVITY_TYPE_CREATE_SUB_ORGANIZATION_V7",
                                "\"subOrganizationName\":\"" + marker + "\","
                                        + "\"rootUsers\":[{\"userName\":\"" + marker
                                        + "\",\"apiKeys\":[],\"authenticators\":[],"
                                        + "\"oauthProviders\":[]}],\"rootQuorumThreshold\":1"));
            case 6 ->
                new Template(
                        "whoami",
                        QUERY + "whoami",
                        "{\"organizationId\":\"" + organizationId + "\",\"fuzzMarker\":\"" + marker + "\"}");
            case 7 ->
                new Template(
                        "list_wallets",
                        QUERY + "list_wallets",
                        "{\"organizationId\":\"" + organizationId + "\",\"fuzzMarker\":\"" + marker
                                + "\",\"paginationOptions\":{\"limit\":\"10\"}}");
            default ->
                new Template(
                        "get_activity",
                        QUERY + "get_activity",
                        "{\"organizationId\":\"" + organizationId + "\",\"activityId\":\"" + marker + "\"}");
        };
    }

    private String mutationName = "";

    /** Byte-level changes, as a fuzzer makes them: flips, inserted and deleted bytes, cuts, repeated slices. */
    private byte[] mutateBytes(String json) {
        byte[] bytes = json.getBytes(StandardCharsets.UTF_8);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int choice = random.nextInt(5);
        mutationName = List.of("flipped bytes", "inserted bytes", "deleted bytes", "cut short", "repeated slice")
                .get(choice);
        switch (choice) {
            case 0 -> {
                for (int i = 1 + random.nextInt(4); i > 0; i--) {
                    bytes[random.nextInt(bytes.length)] ^= (byte) (1 << random.nextInt(8));
                }
                out.writeBytes(bytes);
            }
            case 1 -> {
                int at = random.nextInt(bytes.length);
                out.write(bytes, 0, at);
                for (int i = 1 + random.nextInt(8); i > 0; i--) {
                    out.write(random.nextInt(256));
                }
                out.write(bytes, at, bytes.length - at);
            }
            case 2 -> {
                int at = random.nextInt(bytes.length);
                int cut = Math.min(bytes.length - at, 1 + random.nextInt(16));
                out.write(bytes, 0, at);
                out.write(bytes, at + cut, bytes.length - at - cut);
            }
            case 3 -> out.write(bytes, 0, random.nextInt(bytes.length));
            default -> {
                int at = random.nextInt(bytes.length);
                int length = Math.min(bytes.length - at, 1 + random.nextInt(40));
                out.write(bytes, 0, at + length);
                for (int i = 1 + random.nextInt(50); i > 0; i--) {
                    out.write(bytes, at, length);
                }
                out.write(bytes, at + length, bytes.length - at - length);
            }
        }
        return out.toByteArray();
    }

    private RawRequest unstampedMutation(Kind kind) {
        Template t = template();
        byte[] valid = t.json.getBytes(StandardCharsets.UTF_8);
        Stamper.Stamp stamp = stamper.stamp(valid);
        byte[] mutated = mutateBytes(t.json);
        return new RawRequest(kind + " " + t.name + " " + mutationName, "POST", t.path)
                .header("Content-Type", "application/json")
                .header(stamp.headerName(), stamp.headerValue())
                .body(mutated, Framing.CONTENT_LENGTH);
    }

    /** One string value of a template replaced, or the document wrapped, with something a parser must survive. */
    private RawRequest nastyValue(Kind kind) {
        Template t = template();
        List<Supplier<String>> values = List.of(
                () -> "\"a\\u0000b" + marker + "\"",
                () -> "\"a\u0000b" + marker + "\"",
                () -> "\"\\ud800" + marker + "\"",
                () -> "\"\\udfff\\ud800" + marker + "\"",
                () -> "\"" + marker + "\\u202e\\ufeff\\uffff\"",
                () -> "1e99999999",
                () -> "-0.0e-99999",
                () -> "9".repeat(99),
                () -> "9".repeat(101),
                () -> "18446744073709551616",
                () -> "[".repeat(70) + "]".repeat(70),
                () -> "[".repeat(5000) + "]".repeat(5000),
                () -> "{\"a\":".repeat(3000) + "1" + "}".repeat(3000),
                () -> "\"" + marker + "x".repeat(300_000) + "\"",
                () -> "{\"" + marker + "\":1,\"" + marker + "\":2}",
                () -> "true",
                () -> "null",
                () -> "[]",
                () -> "{}",
                () -> "\"\"",
                () -> "\"\\x41\"",
                () -> "'single'",
                () -> "NaN",
                () -> "Infinity");
        int which = random.nextInt(values.size());
        String value = values.get(which).get();
        String json = t.json;
        int quote = json.indexOf("\":\"", random.nextInt(json.length()));
        if (quote < 0) {
            quote = json.indexOf("\":\"");
        }
        int end = json.indexOf('"', quote + 3);
        String replaced = json.substring(0, quote + 2) + value + json.substring(end + 1);
        String name = which + " in " + t.name;
        byte[] body = replaced.getBytes(StandardCharsets.UTF_8);
        if (which == 1) {
            // A raw NUL: JSON forbids control characters unescaped.
            name += " (raw NUL)";
        }
        if (random.nextInt(8) == 0) {
            body = concat(body, new byte[] {(byte) 0xc3, (byte) 0x28, (byte) 0xff, (byte) 0xfe});
            name += " + invalid UTF-8 after the document";
        } else if (random.nextInt(8) == 0) {
            int at = replaced.indexOf(marker) + 2;
            body = concat(
                    Arrays.copyOf(body, at),
                    new byte[] {(byte) 0xc0, (byte) 0xaf, (byte) 0xed, (byte) 0xa0, (byte) 0x80},
                    Arrays.copyOfRange(body, at, body.length));
            name += " + invalid UTF-8 in a string";
        }
        return stamped(kind, name, t.path, body);
    }

    private RawRequest otherEncoding(Kind kind) {
        Template t = template();
        List<String> names = List.of("UTF-16LE", "UTF-16BE", "UTF-16", "UTF-32LE", "UTF-32BE", "ISO-8859-1 é");
        int which = random.nextInt(names.size());
        byte[] body;
        String json = which == 5 ? t.json.replace(marker, marker + "é") : t.json;
        Charset charset = Charset.forName(which == 5 ? "ISO-8859-1" : names.get(which));
        body = json.getBytes(charset);
        RawRequest request = stamped(kind, names.get(which) + " " + t.name, t.path, body);
        if (random.nextBoolean()) {
            request.header(
                    "Content-Type",
                    "application/json; charset=" + charset.name().toLowerCase(Locale.ROOT));
        }
        return request;
    }

    // ---- headers and framing ----------------------------------------------------------------------------------

    private RawRequest headerAbuse(Kind kind) {
        Template t = template();
        byte[] body = t.json.getBytes(StandardCharsets.UTF_8);
        Stamper.Stamp stamp = stamper.stamp(body);
        String value = stamp.headerValue();
        int which = random.nextInt(16);
        RawRequest request = new RawRequest(kind + " " + which + " " + t.name, "POST", t.path);
        switch (which) {
            case 0 -> request.header(stamp.headerName(), value);
            case 1 ->
                request.header("Content-Type", "application/json")
                        .header(stamp.headerName(), value)
                        .header(stamp.headerName(), value);
            case 2 ->
                request.header("Content-Type", "text/plain; charset=utf-16").header(stamp.headerName(), value);
            case 3 ->
                request.header("Content-Type", "application/json")
                        .header(stamp.headerName(), value + "A".repeat(70_000));
            case 4 ->
                request.header("Content-Type", "application/json")
                        .header("X-Fuzz", "v".repeat(200_000))
                        .header(stamp.headerName(), value);
            case 5 ->
                request.header("Content-Type", "application/json")
                        .header(stamp.headerName(), Base64.getEncoder().encodeToString(randomBytes(60)));
            case 6 ->
                request.header("Content-Type", "application/json")
                        .header(
                                stamp.headerName(),
                                "{\"publicKey\":" + "\"" + marker
                                        + "\",\"scheme\":\"SIGNATURE_SCHEME_TK_API_P256\",\"signature\":\"00\"}");
            case 7 ->
                request.header("Content-Type", "application/json")
                        .header(concat(
                                (stamp.headerName() + ": ").getBytes(StandardCharsets.US_ASCII), randomBytes(40)));
            case 8 ->
                request.header("Content-Type", "application/json")
                        .header(stamp.headerName(), value.substring(0, 10) + "\u0000" + value.substring(10));
            case 9 -> {
                request.header("Content-Type", "application/json").header(stamp.headerName(), value);
                for (int i = 0; i < 400; i++) {
                    request.header("X-Many-" + i, "v");
                }
            }
            case 10 ->
                request.header("Content-Type", "application/json")
                        .header("X-Stamp-Webauthn", value)
                        .header("X-Stamp-Attested", value);
            case 11 ->
                request.header("Content-Type", "application/json")
                        .header(stamp.headerName(), value.substring(0, value.length() / 2))
                        .header((" " + value.substring(value.length() / 2)).getBytes(StandardCharsets.US_ASCII));
            case 12 ->
                request.header("Content-Type", "application/json")
                        .header((stamp.headerName() + value).getBytes(StandardCharsets.US_ASCII));
            case 13 ->
                request.header("Content-Type", "application/json")
                        .header("X-Session", marker)
                        .header(stamp.headerName(), "");
            case 14 ->
                request.header("Content-Type", "application/json")
                        .header(stamp.headerName(), value)
                        .header("Expect", "100-continue");
            default ->
                request.header("Content-Type", "application/json; charset=ebcdic")
                        .header(stamp.headerName(), value)
                        .header("Accept-Encoding", "gzip")
                        .header("Content-Encoding", "gzip");
        }
        return request.body(body, Framing.CONTENT_LENGTH);
    }

    private RawRequest lengthAbuse(Kind kind) {
        Template t = template();
        byte[] body = t.json.getBytes(StandardCharsets.UTF_8);
        Stamper.Stamp stamp = stamper.stamp(body);
        int which = random.nextInt(7);
        RawRequest request = new RawRequest(kind + " " + which + " " + t.name, "POST", t.path)
                .header("Content-Type", "application/json")
                .header(stamp.headerName(), stamp.headerValue());
        switch (which) {
            case 0 -> request.header("Content-Length", Integer.toString(body.length / 2));
            case 1 -> request.header("Content-Length", "-1");
            case 2 -> request.header("Content-Length", "12abc");
            case 3 ->
                request.header("Content-Length", Integer.toString(body.length))
                        .header("Content-Length", Integer.toString(body.length + 1));
            case 4 -> request.header("Content-Length", "99999999999999999999");
            case 5 ->
                request.header("Content-Length", Integer.toString(body.length)).header("Transfer-Encoding", "chunked");
            default -> request.header("Content-Length", Integer.toString(body.length + 100));
        }
        return request.body(body, Framing.AS_GIVEN);
    }

    private RawRequest chunkedAbuse(Kind kind) {
        Template t = template();
        byte[] body = t.json.getBytes(StandardCharsets.UTF_8);
        Stamper.Stamp stamp = stamper.stamp(body);
        int half = body.length / 2;
        String first = new String(body, 0, half, StandardCharsets.UTF_8);
        String second = new String(body, half, body.length - half, StandardCharsets.UTF_8);
        List<String> framings = List.of(
                Integer.toHexString(half) + "\r\n" + first + "\r\n" + Integer.toHexString(body.length - half) + "\r\n"
                        + second + "\r\n0\r\n\r\n",
                "zz\r\n" + first + "\r\n0\r\n\r\n",
                "-5\r\n" + first + "\r\n0\r\n\r\n",
                "ffffffffffffffff\r\n" + first + "\r\n0\r\n\r\n",
                Integer.toHexString(half + 7) + "\r\n" + first + "\r\n0\r\n\r\n",
                Integer.toHexString(half) + "\r\n" + first + "\r\n",
                Integer.toHexString(half) + ";ext=\"" + marker + "\"\r\n" + first + "\r\n0\r\n\r\n",
                Integer.toHexString(half) + "\r\n" + first + "\r\n0\r\nX-Trailer: " + marker + "\r\n\r\n",
                Integer.toHexString(half) + "\n" + first + "\n0\n\n",
                Integer.toHexString(half) + "\r\n" + first + "0\r\n\r\n",
                Integer.toHexString(half) + "\r\n" + first + "\r\n" + "1\r\nx\r\n".repeat(5000) + "0\r\n\r\n",
                "0\r\n\r\n" + t.json);
        int which = random.nextInt(framings.size());
        List<String> encodings =
                List.of("chunked", "chunked", "chunked", "gzip, chunked", "chunked, chunked", "identity", "Chunked");
        String encoding = encodings.get(random.nextInt(encodings.size()));
        return new RawRequest(kind + " " + which + " (" + encoding + ") " + t.name, "POST", t.path)
                .header("Content-Type", "application/json")
                .header(stamp.headerName(), stamp.headerValue())
                .header("Transfer-Encoding", encoding)
                .body(framings.get(which).getBytes(StandardCharsets.UTF_8), Framing.AS_GIVEN);
    }

    private RawRequest requestLineAbuse(Kind kind) {
        Template t = template();
        byte[] body = t.json.getBytes(StandardCharsets.UTF_8);
        Stamper.Stamp stamp = stamper.stamp(body);
        List<String> lines = List.of(
                "HEAD " + t.path + " HTTP/1.1",
                "GET " + t.path + " HTTP/1.1",
                "PUT " + t.path + " HTTP/1.1",
                "DELETE " + t.path + " HTTP/1.1",
                "TRACE " + t.path + " HTTP/1.1",
                "HEAD /health HTTP/1.1",
                "HEAD /public/v1/nothing-here HTTP/1.1",
                "POST " + t.path + "%00 HTTP/1.1",
                "POST " + t.path + "?x=" + marker + " HTTP/1.1",
                "POST /" + "a".repeat(20_000) + " HTTP/1.1",
                "POST " + t.path + " HTTP/1.0",
                "POST " + t.path + " HTTP/2.0",
                "post " + t.path + " HTTP/1.1",
                "POST http://evil.example" + t.path + " HTTP/1.1",
                "POST " + t.path + "/../query/whoami HTTP/1.1",
                "POST  " + t.path + "  HTTP/1.1",
                "\u0000\u0001\u0002 garbage",
                "PRI * HTTP/2.0",
                "OPTIONS * HTTP/1.1",
                "GET /metrics HTTP/1.1");
        int which = random.nextInt(lines.size());
        RawRequest request =
                new RawRequest(kind + " " + which + " " + t.name, "POST", t.path).requestLine(lines.get(which));
        return request.header("Content-Type", "application/json")
                .header(stamp.headerName(), stamp.headerValue())
                .body(body, Framing.CONTENT_LENGTH);
    }

    private RawRequest authProxy(Kind kind) {
        String[] operations = {
            "otp_init_v2", "otp_init", "otp_verify_v2", "otp_login_v2", "oauth_login", "oauth2_authenticate", "nothing"
        };
        String operation = operations[random.nextInt(operations.length)];
        // The contact is no marker: without SMTP the Maildir fallback logs where it wrote a code, by recipient.
        String json = "{\"otpType\":\"OTP_TYPE_EMAIL\",\"contact\":\"fuzz@example.com\",\"otpId\":\"" + marker
                + "\",\"otpCode\":\"123456\",\"verificationToken\":\""
                + marker + "\",\"publicKey\":\"" + marker + "\",\"fuzzMarker\":\"" + marker + "\"}";
        int which = random.nextInt(7);
        byte[] body = switch (which) {
            case 0 -> json.getBytes(StandardCharsets.UTF_8);
            case 1 -> mutateBytes(json);
            case 2 -> json.replace("@example", "\\u0000@example").getBytes(StandardCharsets.UTF_8);
            case 3 -> json.getBytes(StandardCharsets.UTF_16);
            case 4 -> json.replace("123456", "\\ud800").getBytes(StandardCharsets.UTF_8);
            default -> ("[".repeat(3000) + "]".repeat(3000)).getBytes(StandardCharsets.UTF_8);
        };
        RawRequest request = new RawRequest(kind + " " + which + " " + operation, "POST", "/v1/" + operation)
                .header("Content-Type", "application/json");
        if (which == 6) {
            // A first chunk, then a chunk size that is no number.
            String half = Integer.toHexString(body.length / 2);
            byte[] chunked = concat(
                    (half + "\r\n").getBytes(StandardCharsets.US_ASCII),
                    Arrays.copyOf(body, body.length / 2),
                    "\r\nzz\r\n".getBytes(StandardCharsets.US_ASCII));
            return request.header("X-Auth-Proxy-Config-Id", proxyConfigId)
                    .header("Transfer-Encoding", "chunked")
                    .body(chunked, Framing.AS_GIVEN);
        }
        if (random.nextInt(5) > 0) {
            request.header("X-Auth-Proxy-Config-Id", proxyConfigId);
        }
        if (random.nextInt(4) == 0) {
            request.header("Origin", "https://" + marker + ".example");
        }
        return request.body(body, Framing.CONTENT_LENGTH);
    }

    // ---- helpers ----------------------------------------------------------------------------------------------

    private RawRequest stamped(Kind kind, String name, String path, byte[] body) {
        Stamper.Stamp stamp = stamper.stamp(body);
        return new RawRequest(kind + " " + name, "POST", path)
                .header("Content-Type", "application/json")
                .header(stamp.headerName(), stamp.headerValue())
                .body(body, Framing.CONTENT_LENGTH);
    }

    private byte[] randomBytes(int length) {
        byte[] bytes = new byte[length];
        random.nextBytes(bytes);
        return bytes;
    }

    private static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] part : parts) {
            out.writeBytes(part);
        }
        return out.toByteArray();
    }
}
