package dev.keyhaven.server.signing;

import static dev.keyhaven.server.testing.ApiErrors.apiError;
import static org.assertj.core.api.Assertions.assertThat;

import dev.keyhaven.client.Activity;
import dev.keyhaven.client.KeyhavenApiException;
import dev.keyhaven.client.Requests.PrivateKeyParams;
import dev.keyhaven.client.Requests.WalletAccountParams;
import dev.keyhaven.crypto.Digests;
import dev.keyhaven.crypto.EcCurve;
import dev.keyhaven.crypto.eth.Rlp;
import dev.keyhaven.server.api.ErrorCode;
import dev.keyhaven.server.testing.OnBothStores;
import dev.keyhaven.server.testing.TypedData;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.bouncycastle.crypto.params.ECPublicKeyParameters;
import org.bouncycastle.crypto.params.Ed25519PublicKeyParameters;
import org.bouncycastle.crypto.signers.ECDSASigner;
import org.bouncycastle.crypto.signers.Ed25519Signer;
import org.bouncycastle.math.ec.ECAlgorithms;
import org.bouncycastle.math.ec.ECPoint;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.BeforeParameterizedClassInvocation;
import tools.jackson.databind.JsonNode;

/**
 * sign_raw_payload (V2) and sign_raw_payloads on every curve and encoding, checked by verifying each signature
 * with BouncyCastle directly against the account's public key (and, for secp256k1, by recovering the signer from
 * {@code v}); plus the encoding/hash rules and the errors.
 */
class SigningIT extends OnBothStores {
    private static final HexFormat HEX = HexFormat.of();
    private static final String HEXADECIMAL = "PAYLOAD_ENCODING_HEXADECIMAL";
    private static final String TEXT = "PAYLOAD_ENCODING_TEXT_UTF8";
    private static final String MAIL = TypedData.MAIL;
    private static final String MAIL_DIGEST = "be609aee343fb3c4b28e1df9e632fca64fcfaede20f02e86244efddf30957bd2";

    private String ethAddress;
    private String ethPublicKey;
    private String solAddress;
    private String solPublicKey;
    private String p256Address;

    @BeforeParameterizedClassInvocation
    void createKeys() {
        Activity wallet = root.createWallet(
                "signing",
                List.of(
                        WalletAccountParams.ethereum(0),
                        WalletAccountParams.of("CURVE_ED25519", "m/44'/501'/0'/0'", "ADDRESS_FORMAT_SOLANA"),
                        WalletAccountParams.of("CURVE_P256", "m/0'/0", "ADDRESS_FORMAT_COMPRESSED")));
        JsonNode accounts = root.query(
                        "list_wallet_accounts",
                        Map.of("walletId", wallet.result().path("walletId").asString()))
                .path("accounts");
        ethAddress = accounts.get(0).path("address").asString();
        ethPublicKey = accounts.get(0).path("publicKey").asString();
        solAddress = accounts.get(1).path("address").asString();
        solPublicKey = accounts.get(1).path("publicKey").asString();
        p256Address = accounts.get(2).path("address").asString();
    }

    private JsonNode sign(String signWith, String payload, String encoding, String hash) {
        Activity activity = root.signRawPayload(signWith, payload, encoding, hash);
        assertThat(activity.status()).isEqualTo("ACTIVITY_STATUS_COMPLETED");
        assertThat(activity.type()).isEqualTo("ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2");
        return activity.result();
    }

    @Test
    void secp256k1SignaturesVerifyAndRecoverTheAccount() {
        byte[] message = "hello keyhaven".getBytes(StandardCharsets.UTF_8);
        for (String hash : List.of("HASH_FUNCTION_KECCAK256", "HASH_FUNCTION_SHA256")) {
            JsonNode sig = sign(ethAddress, HEX.formatHex(message), HEXADECIMAL, hash);
            byte[] digest = hash.endsWith("KECCAK256") ? Digests.keccak256(message) : Digests.sha256(message);
            assertSignedBy(EcCurve.SECP256K1, ethPublicKey, digest, sig);
            assertThat(sig.path("r").asString()).matches("[0-9a-f]{64}");
            assertThat(sig.path("v").asString()).isIn("00", "01");
            assertThat(new BigInteger(sig.path("s").asString(), 16))
                    .isLessThanOrEqualTo(EcCurve.SECP256K1.order().shiftRight(1));
            assertThat(ethereumAddressOf(recover(EcCurve.SECP256K1, digest, sig)))
                    .isEqualTo(ethAddress.toLowerCase(Locale.ROOT));
        }
        byte[] digest = Digests.keccak256(message);
        JsonNode prehashed = sign(ethAddress, "0x" + HEX.formatHex(digest), HEXADECIMAL, "HASH_FUNCTION_NO_OP");
        assertSignedBy(EcCurve.SECP256K1, ethPublicKey, digest, prehashed);
        JsonNode text = sign(ethAddress, "hello keyhaven", TEXT, "HASH_FUNCTION_KECCAK256");
        assertThat(text).isEqualTo(sign(ethAddress, HEX.formatHex(message), HEXADECIMAL, "HASH_FUNCTION_KECCAK256"));
    }

    @Test
    void theAddressMatchesInAnyLetterCase() {
        JsonNode upper = sign(
                ethAddress.toUpperCase(Locale.ROOT).replace("0X", "0x"),
                "11".repeat(32),
                HEXADECIMAL,
                "HASH_FUNCTION_NO_OP");
        assertSignedBy(EcCurve.SECP256K1, ethPublicKey, HEX.parseHex("11".repeat(32)), upper);
    }

    @Test
    void ed25519SignsTheMessageItself() {
        byte[] message = "solana transaction bytes".getBytes(StandardCharsets.UTF_8);
        JsonNode sig = sign(solAddress, HEX.formatHex(message), HEXADECIMAL, "HASH_FUNCTION_NOT_APPLICABLE");
        assertThat(sig.path("v").asString()).isEqualTo("00");
        Ed25519Signer verifier = new Ed25519Signer();
        verifier.init(false, new Ed25519PublicKeyParameters(HEX.parseHex(solPublicKey)));
        verifier.update(message, 0, message.length);
        assertThat(verifier.verifySignature(
                        HEX.parseHex(sig.path("r").asString() + sig.path("s").asString())))
                .isTrue();
    }

    @Test
    void p256SignsDigests() {
        byte[] message = "p256 payload".getBytes(StandardCharsets.UTF_8);
        JsonNode sig = sign(p256Address, HEX.formatHex(message), HEXADECIMAL, "HASH_FUNCTION_SHA256");
        assertSignedBy(EcCurve.P256, p256Address, Digests.sha256(message), sig);
        assertThat(HEX.formatHex(
                        recover(EcCurve.P256, Digests.sha256(message), sig).getEncoded(true)))
                .isEqualTo(p256Address);
    }

    @Test
    void eip712TypedDataIsHashedAsTheStandardSays() {
        for (String hash : List.of("HASH_FUNCTION_NO_OP", "HASH_FUNCTION_KECCAK256")) {
            JsonNode sig = sign(ethAddress, MAIL, "PAYLOAD_ENCODING_EIP712", hash);
            assertSignedBy(EcCurve.SECP256K1, ethPublicKey, HEX.parseHex(MAIL_DIGEST), sig);
        }
        apiError(
                ErrorCode.BAD_REQUEST,
                "parameters.payload",
                () -> root.signRawPayload(
                        ethAddress, "{\"types\":{}}", "PAYLOAD_ENCODING_EIP712", "HASH_FUNCTION_NO_OP"));
        assertThat(apiError(
                                ErrorCode.BAD_REQUEST,
                                null,
                                () -> root.signRawPayload(
                                        ethAddress, MAIL, "PAYLOAD_ENCODING_EIP712", "HASH_FUNCTION_SHA256"))
                        .serverMessage())
                .isEqualTo("payload encoding PAYLOAD_ENCODING_EIP712 is hashed with keccak-256 as its standard says: "
                        + "use HASH_FUNCTION_NO_OP or HASH_FUNCTION_KECCAK256");
        assertThat(apiError(
                                ErrorCode.BAD_REQUEST,
                                null,
                                () -> root.signRawPayload(
                                        solAddress, MAIL, "PAYLOAD_ENCODING_EIP712", "HASH_FUNCTION_NOT_APPLICABLE"))
                        .serverMessage())
                .isEqualTo("payload encoding PAYLOAD_ENCODING_EIP712 needs a CURVE_SECP256K1 key, not CURVE_ED25519");
    }

    @Test
    void eip7702AuthorizationsAreSignedOverTheirDigest() {
        String contract = "0x" + "12".repeat(20);
        JsonNode sig = sign(
                ethAddress,
                "{\"address\":\"" + contract + "\",\"chainId\":1,\"nonce\":7}",
                "PAYLOAD_ENCODING_EIP7702_AUTHORIZATION",
                "HASH_FUNCTION_NO_OP");
        // keccak256(0x05 || rlp([1, address, 7])): a 22-byte-list header 0xd7, then 0x01, 0x94 + address, 0x07.
        byte[] rlp = HEX.parseHex("05d70194" + "12".repeat(20) + "07");
        assertSignedBy(EcCurve.SECP256K1, ethPublicKey, Digests.keccak256(rlp), sig);
    }

    @Test
    void severalPayloadsAreSignedInOneActivity() {
        List<String> payloads = List.of("aa".repeat(32), "bb".repeat(32), "cc".repeat(32));
        Activity activity = root.submit(
                "sign_raw_payloads",
                "ACTIVITY_TYPE_SIGN_RAW_PAYLOADS",
                Map.of(
                        "signWith",
                        ethAddress,
                        "payloads",
                        payloads,
                        "encoding",
                        HEXADECIMAL,
                        "hashFunction",
                        "HASH_FUNCTION_NO_OP"),
                "signRawPayloadsResult");
        JsonNode signatures = activity.result().path("signatures");
        assertThat(signatures.size()).isEqualTo(3);
        for (int i = 0; i < 3; i++) {
            assertSignedBy(EcCurve.SECP256K1, ethPublicKey, HEX.parseHex(payloads.get(i)), signatures.get(i));
        }
        apiError(
                ErrorCode.BAD_REQUEST,
                "parameters.payloads[1]",
                () -> root.submit(
                        "sign_raw_payloads",
                        "ACTIVITY_TYPE_SIGN_RAW_PAYLOADS",
                        Map.of(
                                "signWith",
                                ethAddress,
                                "payloads",
                                List.of("aa".repeat(32), "abc"),
                                "encoding",
                                HEXADECIMAL,
                                "hashFunction",
                                "HASH_FUNCTION_NO_OP"),
                        "signRawPayloadsResult"));
        apiError(
                ErrorCode.BAD_REQUEST,
                "parameters.payloads",
                () -> root.submit(
                        "sign_raw_payloads",
                        "ACTIVITY_TYPE_SIGN_RAW_PAYLOADS",
                        Map.of(
                                "signWith",
                                ethAddress,
                                "payloads",
                                List.of(),
                                "encoding",
                                HEXADECIMAL,
                                "hashFunction",
                                "HASH_FUNCTION_NO_OP"),
                        "signRawPayloadsResult"));
    }

    @Test
    void privateKeysSignByIdAndByAddress() {
        JsonNode created = root.createPrivateKeys(List.of(new PrivateKeyParams(
                        "signer", "CURVE_SECP256K1", List.of(), List.of("ADDRESS_FORMAT_ETHEREUM"))))
                .result()
                .path("privateKeys")
                .get(0);
        String id = created.path("privateKeyId").asString();
        String address = created.path("addresses").get(0).path("address").asString();
        String publicKey = root.getPrivateKey(id).path("publicKey").asString();
        byte[] digest = Digests.keccak256("by id".getBytes(StandardCharsets.UTF_8));
        assertSignedBy(
                EcCurve.SECP256K1,
                publicKey,
                digest,
                sign(id, HEX.formatHex(digest), HEXADECIMAL, "HASH_FUNCTION_NO_OP"));
        assertSignedBy(
                EcCurve.SECP256K1,
                publicKey,
                digest,
                sign(address, HEX.formatHex(digest), HEXADECIMAL, "HASH_FUNCTION_NO_OP"));
    }

    @Test
    void encodingsAndHashFunctionsThatDoNotSuitTheCurveFailNamingTheProblem() {
        assertThat(apiError(
                                ErrorCode.BAD_REQUEST,
                                null,
                                () -> root.signRawPayload(solAddress, "abcd", HEXADECIMAL, "HASH_FUNCTION_SHA256"))
                        .serverMessage())
                .isEqualTo("hash function HASH_FUNCTION_SHA256 does not "
                        + "apply to CURVE_ED25519 keys, which hash as part of signing: "
                        + "use HASH_FUNCTION_NOT_APPLICABLE");
        assertThat(apiError(
                                ErrorCode.BAD_REQUEST,
                                null,
                                () -> root.signRawPayload(
                                        ethAddress, "abcd", HEXADECIMAL, "HASH_FUNCTION_NOT_APPLICABLE"))
                        .serverMessage())
                .isEqualTo("hash function "
                        + "HASH_FUNCTION_NOT_APPLICABLE is only for CURVE_ED25519 keys; CURVE_SECP256K1 signs a "
                        + "digest: "
                        + "use HASH_FUNCTION_NO_OP, HASH_FUNCTION_SHA256 or HASH_FUNCTION_KECCAK256");
        assertThat(apiError(
                                ErrorCode.BAD_REQUEST,
                                null,
                                () -> root.signRawPayload(ethAddress, "abcd", HEXADECIMAL, "HASH_FUNCTION_NO_OP"))
                        .serverMessage())
                .isEqualTo(
                        "with HASH_FUNCTION_NO_OP the payload is the " + "digest to sign and must be 32 bytes, not 2");
        assertThat(apiError(
                                ErrorCode.BAD_REQUEST,
                                null,
                                () -> root.signRawPayload(
                                        p256Address, MAIL, "PAYLOAD_ENCODING_EIP712", "HASH_FUNCTION_NO_OP"))
                        .serverMessage())
                .isEqualTo("payload encoding PAYLOAD_ENCODING_EIP712 needs a CURVE_SECP256K1 key, not CURVE_P256");
        List<JsonNode> failed = root.listActivities(
                List.of("ACTIVITY_STATUS_FAILED"), List.of("ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2"), "1", null, null);
        assertThat(failed.getFirst().path("failure").path("message").asString()).contains("CURVE_P256");
    }

    @Test
    void ethereumTransactionsAreSignedAndSerialised() {
        // EIP-1559: [chainId 1, nonce 0, tip, max fee, gas, to, value, data, accessList].
        byte[][] fields = {
            Rlp.encodeInteger(BigInteger.ONE),
            Rlp.encodeInteger(BigInteger.ZERO),
            Rlp.encodeInteger(BigInteger.valueOf(1_000_000_000L)),
            Rlp.encodeInteger(BigInteger.valueOf(3_000_000_000L)),
            Rlp.encodeInteger(BigInteger.valueOf(21_000)),
            Rlp.encodeBytes(HEX.parseHex("35".repeat(20))),
            Rlp.encodeInteger(BigInteger.TEN),
            Rlp.encodeBytes(new byte[0]),
            Rlp.encodeList()
        };
        String unsigned = "02" + HEX.formatHex(Rlp.encodeList(fields));
        Activity activity = root.submit(
                "sign_transaction",
                "ACTIVITY_TYPE_SIGN_TRANSACTION_V2",
                Map.of("signWith", ethAddress, "type", "TRANSACTION_TYPE_ETHEREUM", "unsignedTransaction", unsigned),
                "signTransactionResult");
        assertThat(activity.isCompleted()).isTrue();
        // Signing is deterministic (RFC 6979), so the raw signature of the same hash is the one in the transaction.
        JsonNode sig = sign(
                ethAddress,
                HEX.formatHex(Digests.keccak256(HEX.parseHex(unsigned))),
                HEXADECIMAL,
                "HASH_FUNCTION_NO_OP");
        byte[][] signedFields = java.util.Arrays.copyOf(fields, fields.length + 3);
        signedFields[fields.length] =
                Rlp.encodeInteger(new BigInteger(sig.path("v").asString(), 16));
        signedFields[fields.length + 1] =
                Rlp.encodeInteger(new BigInteger(sig.path("r").asString(), 16));
        signedFields[fields.length + 2] =
                Rlp.encodeInteger(new BigInteger(sig.path("s").asString(), 16));
        assertThat(activity.result().path("signedTransaction").asString())
                .isEqualTo("02" + HEX.formatHex(Rlp.encodeList(signedFields)));
        assertSignedBy(EcCurve.SECP256K1, ethPublicKey, Digests.keccak256(HEX.parseHex(unsigned)), sig);

        apiError(
                ErrorCode.BAD_REQUEST,
                "parameters.unsignedTransaction",
                () -> root.submit(
                        "sign_transaction",
                        "ACTIVITY_TYPE_SIGN_TRANSACTION_V2",
                        Map.of(
                                "signWith",
                                ethAddress,
                                "type",
                                "TRANSACTION_TYPE_ETHEREUM",
                                "unsignedTransaction",
                                "02c0"),
                        "signTransactionResult"));
        assertThat(apiError(
                                ErrorCode.BAD_REQUEST,
                                "parameters.unsignedTransaction",
                                () -> root.submit(
                                        "sign_transaction",
                                        "ACTIVITY_TYPE_SIGN_TRANSACTION_V2",
                                        Map.of(
                                                "signWith",
                                                ethAddress,
                                                "type",
                                                "TRANSACTION_TYPE_SOLANA",
                                                "unsignedTransaction",
                                                "00"),
                                        "signTransactionResult"))
                        .serverMessage())
                .startsWith("bad request body: parameters.unsignedTransaction is not an unsigned Solana transaction: ");
        KeyhavenApiException tempo = apiError(
                ErrorCode.UNIMPLEMENTED,
                "parameters.type",
                () -> root.submit(
                        "sign_transaction",
                        "ACTIVITY_TYPE_SIGN_TRANSACTION_V2",
                        Map.of("signWith", ethAddress, "type", "TRANSACTION_TYPE_TEMPO", "unsignedTransaction", "76c0"),
                        "signTransactionResult"));
        assertThat(tempo.httpStatus()).isEqualTo(501);
        assertThat(tempo.serverMessage())
                .isEqualTo("sign_transaction does not support TRANSACTION_TYPE_TEMPO yet; "
                        + "sign the transaction's digest with sign_raw_payload");
        assertThat(apiError(
                                ErrorCode.BAD_REQUEST,
                                null,
                                () -> root.submit(
                                        "sign_transaction",
                                        "ACTIVITY_TYPE_SIGN_TRANSACTION_V2",
                                        Map.of(
                                                "signWith",
                                                solAddress,
                                                "type",
                                                "TRANSACTION_TYPE_ETHEREUM",
                                                "unsignedTransaction",
                                                unsigned),
                                        "signTransactionResult"))
                        .serverMessage())
                .isEqualTo("TRANSACTION_TYPE_ETHEREUM needs a CURVE_SECP256K1 key, not CURVE_ED25519");
    }

    @Test
    void malformedRequestsAreRejectedNamingTheField() {
        apiError(
                ErrorCode.BAD_REQUEST,
                "parameters.payload",
                () -> root.signRawPayload(ethAddress, "xyz", HEXADECIMAL, "HASH_FUNCTION_KECCAK256"));
        assertThat(apiError(
                                ErrorCode.BAD_REQUEST,
                                "parameters.payload",
                                () -> root.signRawPayload(ethAddress, "abc", HEXADECIMAL, "HASH_FUNCTION_KECCAK256"))
                        .serverMessage())
                .isEqualTo("bad request body: parameters.payload must be hexadecimal with an even number of digits");
        apiError(
                ErrorCode.BAD_REQUEST,
                "parameters.encoding",
                () -> root.signRawPayload(ethAddress, "ab", "PAYLOAD_ENCODING_BASE64", "HASH_FUNCTION_KECCAK256"));
        apiError(
                ErrorCode.BAD_REQUEST,
                "parameters.hashFunction",
                () -> root.signRawPayload(ethAddress, "ab", HEXADECIMAL, "HASH_FUNCTION_MD5"));
        assertThat(apiError(
                                ErrorCode.BAD_REQUEST,
                                "parameters.signWith",
                                () -> root.submit(
                                        "sign_raw_payload",
                                        "ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2",
                                        Map.of(
                                                "payload",
                                                "ab",
                                                "encoding",
                                                HEXADECIMAL,
                                                "hashFunction",
                                                "HASH_FUNCTION_KECCAK256"),
                                        "signRawPayloadResult"))
                        .serverMessage())
                .isEqualTo("bad request body: parameters.signWith is required");
        assertThat(apiError(
                                ErrorCode.NOT_FOUND,
                                null,
                                () -> root.signRawPayload(
                                        "0x" + "00".repeat(20), "ab", HEXADECIMAL, "HASH_FUNCTION_KECCAK256"))
                        .serverMessage())
                .isEqualTo("no wallet account or private key " + "of this organization matches signWith '0x"
                        + "00".repeat(20) + "'");
    }

    private static void assertSignedBy(EcCurve curve, String publicKeyHex, byte[] digest, JsonNode sig) {
        ECDSASigner verifier = new ECDSASigner();
        ECPoint point = curve.decodePoint(HEX.parseHex(publicKeyHex));
        verifier.init(false, new ECPublicKeyParameters(point, curve.domain()));
        assertThat(verifier.verifySignature(
                        digest,
                        new BigInteger(sig.path("r").asString(), 16),
                        new BigInteger(sig.path("s").asString(), 16)))
                .as("signature verifies")
                .isTrue();
        assertThat(recover(curve, digest, sig)).as("v recovers the signer").isEqualTo(point);
    }

    /** Public-key recovery (SEC 1 §4.1.6) from r, s and the recovery id v, written out here independently. */
    private static ECPoint recover(EcCurve curve, byte[] digest, JsonNode sig) {
        BigInteger n = curve.order();
        BigInteger r = new BigInteger(sig.path("r").asString(), 16);
        BigInteger s = new BigInteger(sig.path("s").asString(), 16);
        int v = Integer.parseInt(sig.path("v").asString(), 16);
        BigInteger x = (v & 2) == 0 ? r : r.add(n);
        byte[] xBytes = org.bouncycastle.util.BigIntegers.asUnsignedByteArray(32, x);
        byte[] encoded = new byte[33];
        encoded[0] = (byte) ((v & 1) == 0 ? 0x02 : 0x03);
        System.arraycopy(xBytes, 0, encoded, 1, 32);
        ECPoint bigR = curve.domain().getCurve().decodePoint(encoded);
        BigInteger e = new BigInteger(1, digest);
        BigInteger rInv = r.modInverse(n);
        return ECAlgorithms.sumOfTwoMultiplies(
                        curve.domain().getG(),
                        rInv.multiply(e).negate().mod(n),
                        bigR,
                        rInv.multiply(s).mod(n))
                .normalize();
    }

    private static String ethereumAddressOf(ECPoint point) {
        byte[] uncompressed = point.getEncoded(false);
        byte[] hash = Digests.keccak256(java.util.Arrays.copyOfRange(uncompressed, 1, 65));
        return "0x" + HEX.formatHex(java.util.Arrays.copyOfRange(hash, 12, 32));
    }
}
