package dev.keyhaven.server.api;

import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Optional;
import tools.jackson.core.JacksonException;
import tools.jackson.core.exc.StreamReadException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;

/**
 * Parses a request body the one way every listener accepts it: JSON text in UTF-8 (RFC 8259 §8.1), without a byte
 * order mark, whose strings hold no {@link TextFlaws flawed} characters. Anything else is a 400 that names the
 * problem before anything reads the body's meaning.
 *
 * <p>Jackson alone would guess UTF-16 and UTF-32 from the first bytes and read them, so a body would mean one thing
 * to the signer of its bytes and, stored as UTF-8 text, another to a reader later; and PostgreSQL cannot store the
 * NUL characters such a body decodes to as text. So the bytes are checked first, then every string of the tree.
 */
public final class JsonBody {
    private static final String SEND_UTF_8 = "; send JSON as UTF-8";
    /** Member names are echoed in messages; a long one is cut here. */
    private static final int MAX_NAME_IN_PATH = 64;

    private JsonBody() {}

    /** The JSON value of {@code body}; any problem is a 400 {@link ApiException}. */
    public static JsonNode parse(ObjectMapper json, byte[] body) {
        if (body.length == 0) {
            throw ApiException.badRequest("bad request body: empty (a JSON object is required)");
        }
        requireUtf8(body);
        JsonNode tree;
        try {
            tree = json.readTree(body);
        } catch (StreamReadException e) {
            String where = e.getLocation() == null
                    ? ""
                    : " at line " + e.getLocation().getLineNr() + ", column "
                            + e.getLocation().getColumnNr();
            throw ApiException.badRequest("bad request body: malformed JSON" + where + ": " + e.getOriginalMessage());
        } catch (JacksonException e) {
            throw ApiException.badRequest("bad request body: malformed JSON");
        }
        requireFlawlessText(tree, "");
        return tree;
    }

    private static void requireUtf8(byte[] body) {
        Optional<String> marked = byteOrderMark(body);
        if (marked.isPresent()) {
            throw ApiException.badRequest("bad request body: " + marked.get());
        }
        int nul = indexOfNul(body);
        if (nul >= 0) {
            throw ApiException.badRequest("bad request body: not UTF-8 "
                    + wideEncoding(body).map(encoding -> "but " + encoding).orElse("(a NUL byte at offset " + nul + ")")
                    + SEND_UTF_8);
        }
        CharsetDecoder decoder = StandardCharsets.UTF_8
                .newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT);
        ByteBuffer in = ByteBuffer.wrap(body);
        CoderResult result = decoder.decode(in, CharBuffer.allocate(body.length), true);
        if (result.isError()) {
            throw ApiException.badRequest(
                    "bad request body: not valid UTF-8 at byte offset " + in.position() + SEND_UTF_8);
        }
    }

    /** What a leading byte order mark says, UTF-32's first as its little-endian mark begins like UTF-16's. */
    private static Optional<String> byteOrderMark(byte[] body) {
        if (startsWith(body, 0, 0, 0xFE, 0xFF)) {
            return Optional.of("not UTF-8 but UTF-32BE (by its byte order mark)" + SEND_UTF_8);
        }
        if (startsWith(body, 0xFF, 0xFE, 0, 0)) {
            return Optional.of("not UTF-8 but UTF-32LE (by its byte order mark)" + SEND_UTF_8);
        }
        if (startsWith(body, 0xFE, 0xFF)) {
            return Optional.of("not UTF-8 but UTF-16BE (by its byte order mark)" + SEND_UTF_8);
        }
        if (startsWith(body, 0xFF, 0xFE)) {
            return Optional.of("not UTF-8 but UTF-16LE (by its byte order mark)" + SEND_UTF_8);
        }
        if (startsWith(body, 0xEF, 0xBB, 0xBF)) {
            return Optional.of("starts with a byte order mark" + SEND_UTF_8 + " without one");
        }
        return Optional.empty();
    }

    /**
     * The encoding the zero bytes among the first four suggest (RFC 4627 §3: JSON text starts with two ASCII
     * characters), as Jackson would have guessed it.
     */
    private static Optional<String> wideEncoding(byte[] body) {
        if (body.length >= 4) {
            boolean[] zero = {body[0] == 0, body[1] == 0, body[2] == 0, body[3] == 0};
            if (zero[0] && zero[1] && zero[2] && !zero[3]) {
                return Optional.of("UTF-32BE");
            }
            if (!zero[0] && zero[1] && zero[2] && zero[3]) {
                return Optional.of("UTF-32LE");
            }
        }
        if (body.length >= 2 && body[0] == 0 && body[1] != 0) {
            return Optional.of("UTF-16BE");
        }
        if (body.length >= 2 && body[0] != 0 && body[1] == 0) {
            return Optional.of("UTF-16LE");
        }
        return Optional.empty();
    }

    private static boolean startsWith(byte[] body, int... prefix) {
        if (body.length < prefix.length) {
            return false;
        }
        for (int i = 0; i < prefix.length; i++) {
            if ((body[i] & 0xFF) != prefix[i]) {
                return false;
            }
        }
        return true;
    }

    private static int indexOfNul(byte[] body) {
        for (int i = 0; i < body.length; i++) {
            if (body[i] == 0) {
                return i;
            }
        }
        return -1;
    }

    private static String shortened(String name) {
        if (name.codePointCount(0, name.length()) <= MAX_NAME_IN_PATH) {
            return name;
        }
        return name.substring(0, name.offsetByCodePoints(0, MAX_NAME_IN_PATH)) + "…";
    }

    /**
     * Checks every string and member name, and every number: one beyond a double's range (such as {@code 1e400}) would
     * read as infinity and write back as the string {@code "Infinity"}, so a stored body would not say what was
     * signed. Nesting is bounded by the mapper, so the recursion is too.
     */
    private static void requireFlawlessText(JsonNode node, String path) {
        if (node.isFloatingPointNumber() && !Double.isFinite(node.doubleValue())) {
            throw path.isEmpty()
                    ? ApiException.badRequest("bad request body: a number beyond the range of a double")
                    : ApiException.badField(path, "is a number beyond the range of a double");
        } else if (node.isString()) {
            TextFlaws.of(node.stringValue()).ifPresent(flaw -> {
                throw ApiException.badField(path, "contains " + flaw);
            });
        } else if (node.isArray()) {
            for (int i = 0; i < node.size(); i++) {
                requireFlawlessText(node.get(i), path + "[" + i + "]");
            }
        } else if (node.isObject()) {
            for (Map.Entry<String, JsonNode> member : node.properties()) {
                Optional<String> flaw = TextFlaws.of(member.getKey());
                if (flaw.isPresent()) {
                    throw path.isEmpty()
                            ? ApiException.badRequest("bad request body: a member name contains " + flaw.get())
                            : ApiException.badField(path, "has a member name with " + flaw.get());
                }
                String name = shortened(member.getKey());
                requireFlawlessText(member.getValue(), path.isEmpty() ? name : path + "." + name);
            }
        }
    }
}
