package dev.keyhaven.chains.solana;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The vectors of {@code src/test/resources/solana/vectors.json}, produced by {@code generate-vectors.cjs} beside it
 * with {@code @solana/web3.js@1.98.4}, {@code @solana/spl-token@0.4.15} and {@code @coral-xyz/anchor@0.32.1}.
 */
final class SolanaVectors {
    static final String SYSTEM_PROGRAM = "11111111111111111111111111111111";
    static final String TOKEN_PROGRAM = "TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA";
    static final String TOKEN_2022_PROGRAM = "TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb";
    static final String JUPITER = "JUP6LkbZbjS1jKKwapdHNy74zcZ3tLUZoi5QNyVTaV4";
    static final String BLOCKHASH = "US517G5965aydkZ46HS38QLi7UQiSojurfbQfKCELFx";
    static final String LOOKUP = "ADDRESS_TABLE_LOOKUP";
    /** The transactions of the file, by name. */
    static final List<String> TRANSACTIONS = List.of(
            "legacy_system_transfer",
            "legacy_transfer_with_seed",
            "legacy_two_signers",
            "legacy_spl",
            "legacy_spl_multisig",
            "legacy_token2022_fee",
            "legacy_anchor_route",
            "legacy_anchor_set_config",
            "v0_lookup");

    private static final JsonNode ROOT = JsonMapper.builder().build().readTree(resource("vectors.json"));

    private SolanaVectors() {}

    /** The Base58 public key of {@code Keypair.fromSeed(32 bytes of n)}. */
    static String key(int n) {
        return ROOT.get("keys").get("K" + n).stringValue();
    }

    static byte[] seed(int n) {
        byte[] seed = new byte[32];
        Arrays.fill(seed, (byte) n);
        return seed;
    }

    static byte[] wire(String transaction) {
        return hex(transaction, "wire");
    }

    static byte[] hex(String transaction, String field) {
        return HexFormat.of().parseHex(ROOT.get(transaction).get(field).stringValue());
    }

    static String text(String field) {
        return ROOT.get(field).stringValue();
    }

    static SolanaTransaction parse(String transaction) {
        return SolanaTransaction.parse(wire(transaction));
    }

    static String resource(String name) {
        try (InputStream in = SolanaVectors.class.getResourceAsStream("/solana/" + name)) {
            if (in == null) {
                throw new IllegalStateException("no test resource solana/" + name);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
