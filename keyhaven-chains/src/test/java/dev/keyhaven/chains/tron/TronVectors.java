package dev.keyhaven.chains.tron;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.HexFormat;
import java.util.List;
import java.util.stream.StreamSupport;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** The transactions TronWeb 6.5.1 built, signed, decoded and verified (see src/test/resources/tron/README.md). */
final class TronVectors {
    static final HexFormat HEX = HexFormat.of();
    static final JsonNode ROOT = load();

    /** The fixed test key TronWeb signed with, and its address. */
    static final byte[] PRIVATE_KEY = HEX.parseHex(ROOT.path("private_key").asString());

    static final String OWNER = ROOT.path("owner_address").asString();
    static final String RECEIVER = ROOT.path("receiver_address").asString();
    static final String COSIGNER = ROOT.path("cosigner_address").asString();
    static final String WITNESS = ROOT.path("witness_address").asString();

    private TronVectors() {}

    /** One transaction, by the name the generator gave it ({@code transfer}, {@code trc20}, …). */
    record Vector(String name, JsonNode json) {
        byte[] raw() {
            return HEX.parseHex(json.path("raw_data_hex").asString());
        }

        String field(String name) {
            return json.path(name).asString();
        }

        @Override
        public String toString() {
            return name;
        }
    }

    static List<Vector> all() {
        return StreamSupport.stream(ROOT.path("vectors").spliterator(), false)
                .map(node -> new Vector(node.path("name").asString(), node))
                .toList();
    }

    static Vector named(String name) {
        return all().stream().filter(v -> v.name().equals(name)).findFirst().orElseThrow();
    }

    static TronTransaction parsed(String name) {
        return TronTransaction.parse(named(name).raw());
    }

    private static JsonNode load() {
        try (InputStream in = TronVectors.class.getResourceAsStream("/tron/vectors.json")) {
            return JsonMapper.builder().build().readTree(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
