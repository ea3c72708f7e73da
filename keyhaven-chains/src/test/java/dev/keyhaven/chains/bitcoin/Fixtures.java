package dev.keyhaven.chains.bitcoin;

import dev.keyhaven.crypto.KeyCurve;
import dev.keyhaven.crypto.SecretBytes;
import dev.keyhaven.crypto.sign.PayloadSigner;
import dev.keyhaven.crypto.sign.Signature;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;

/** The vectors under {@code src/test/resources/bitcoin} (see the README there), and signing as custody does. */
final class Fixtures {
    static final HexFormat HEX = HexFormat.of();
    private static final JsonNode BITCOINJS = json("/bitcoin/bitcoinjs-psbts.json");

    /** The key K whose inputs the bitcoinjs PSBTs have Keyhaven sign. */
    static final byte[] KEY = HEX.parseHex(BITCOINJS.get("key").get("publicKey").asString());

    private static final byte[] PRIVATE_KEY =
            HEX.parseHex(BITCOINJS.get("key").get("privateKey").asString());

    /** One bitcoinjs PSBT with what K signs in it, the PSBT Keyhaven signed and what bitcoinjs extracted from it. */
    record Case(
            String name, byte[] psbt, List<InputToSign> toSign, long fee, byte[] signedPsbt, String txid, byte[] tx) {
        @Override
        public String toString() {
            return name;
        }
    }

    private Fixtures() {}

    static List<Case> cases() {
        List<Case> cases = new ArrayList<>();
        for (JsonNode c : BITCOINJS.get("cases")) {
            List<InputToSign> toSign = new ArrayList<>();
            for (JsonNode t : c.get("toSign")) {
                InputToSign.Scheme scheme =
                        InputToSign.Scheme.valueOf(t.get("scheme").asString());
                toSign.add(new InputToSign(
                        t.get("index").asInt(),
                        scheme,
                        HEX.parseHex(t.get("sighash").asString())));
            }
            cases.add(new Case(
                    c.get("name").asString(),
                    hex(c, "psbt"),
                    toSign,
                    c.get("fee").asLong(),
                    hex(c, "signedPsbt"),
                    c.get("txid").asString(),
                    hex(c, "tx")));
        }
        return cases;
    }

    static Case named(String name) {
        return cases().stream().filter(c -> c.name().equals(name)).findFirst().orElseThrow();
    }

    /** The PSBTs Keyhaven must refuse for K, by name. */
    static Map<String, byte[]> refusals() {
        Map<String, byte[]> refusals = new TreeMap<>();
        BITCOINJS
                .get("refusals")
                .properties()
                .forEach(e -> refusals.put(e.getKey(), HEX.parseHex(e.getValue().asString())));
        return refusals;
    }

    static byte[] finalised() {
        return HEX.parseHex(BITCOINJS.get("finalised").asString());
    }

    /** Every PSBT of the file: the cases, the refusals and the finalised one. */
    static List<byte[]> allPsbts() {
        List<byte[]> all = new ArrayList<>(cases().stream().map(Case::psbt).toList());
        all.addAll(cases().stream().map(Case::signedPsbt).toList());
        all.addAll(refusals().values());
        all.add(finalised());
        return all;
    }

    /** Signs what K signs as custody would: RFC 6979 ECDSA, or BIP-86 Schnorr with all-zero aux. */
    static List<InputSignature> signAsK(List<InputToSign> toSign) {
        List<InputSignature> signatures = new ArrayList<>();
        for (InputToSign input : toSign) {
            try (SecretBytes key = SecretBytes.copyOf(PRIVATE_KEY)) {
                if (input.scheme() == InputToSign.Scheme.ECDSA) {
                    Signature s = PayloadSigner.signDigest(KeyCurve.SECP256K1, key, input.sighash());
                    signatures.add(InputSignature.ecdsa(input.index(), KEY, s.r(), s.s()));
                } else {
                    signatures.add(InputSignature.taproot(
                            input.index(), PayloadSigner.signTaprootKeyPath(key, input.sighash(), new byte[32])));
                }
            }
        }
        return signatures;
    }

    static JsonNode json(String resource) {
        try (InputStream in = Fixtures.class.getResourceAsStream(resource)) {
            return new ObjectMapper().readTree(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static byte[] hex(JsonNode node, String field) {
        return HEX.parseHex(node.get(field).asString());
    }
}
