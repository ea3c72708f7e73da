package dev.keyhaven.server.signing;

import static dev.keyhaven.server.testing.ApiErrors.isError;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.keyhaven.crypto.Digests;
import dev.keyhaven.crypto.KeyCurve;
import dev.keyhaven.server.api.ApiException;
import dev.keyhaven.server.api.ErrorCode;
import dev.keyhaven.server.testing.TypedData;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** The curve × encoding × hash-function table of what each key signs. */
class SignableTest {
    private static final byte[] MESSAGE = "payload".getBytes(StandardCharsets.UTF_8);
    private static final Payload RAW = new Payload.Raw(MESSAGE);
    private static final Payload DIGEST = new Payload.Raw(new byte[32]);
    private static final Payload TYPED =
            Payload.decode(PayloadEncoding.PAYLOAD_ENCODING_EIP712, TypedData.MAIL, "payload");

    private static Signable of(KeyCurve curve, PayloadEncoding encoding, HashFunction hash, Payload payload) {
        return Signable.of(curve, encoding, hash, payload);
    }

    @Test
    void ed25519SignsTheRawMessageWithNotApplicable() {
        assertThat(of(
                        KeyCurve.ED25519,
                        PayloadEncoding.PAYLOAD_ENCODING_HEXADECIMAL,
                        HashFunction.HASH_FUNCTION_NOT_APPLICABLE,
                        RAW))
                .isInstanceOfSatisfying(
                        Signable.Message.class, m -> assertThat(m.message()).isEqualTo(MESSAGE));
    }

    @ParameterizedTest
    @EnumSource(value = HashFunction.class, names = "HASH_FUNCTION_NOT_APPLICABLE", mode = EnumSource.Mode.EXCLUDE)
    void ed25519RefusesEveryOtherHashFunction(HashFunction hash) {
        assertThatThrownBy(() -> of(KeyCurve.ED25519, PayloadEncoding.PAYLOAD_ENCODING_TEXT_UTF8, hash, DIGEST))
                .isInstanceOfSatisfying(ApiException.class, isError(ErrorCode.BAD_REQUEST, null))
                .hasMessage("hash function " + hash.wireName() + " does not apply to CURVE_ED25519 keys, which hash "
                        + "as part of signing: use HASH_FUNCTION_NOT_APPLICABLE");
    }

    @Test
    void ed25519RefusesEthereumStructuredPayloads() {
        assertThatThrownBy(() -> of(
                        KeyCurve.ED25519,
                        PayloadEncoding.PAYLOAD_ENCODING_EIP712,
                        HashFunction.HASH_FUNCTION_NOT_APPLICABLE,
                        TYPED))
                .isInstanceOfSatisfying(ApiException.class, isError(ErrorCode.BAD_REQUEST, null))
                .hasMessage("payload encoding PAYLOAD_ENCODING_EIP712 needs a CURVE_SECP256K1 key, not CURVE_ED25519");
    }

    @ParameterizedTest
    @EnumSource(
            value = KeyCurve.class,
            names = {"SECP256K1", "P256"})
    void ecdsaHashesThePayloadOrTakesItAsTheDigest(KeyCurve curve) {
        PayloadEncoding hex = PayloadEncoding.PAYLOAD_ENCODING_HEXADECIMAL;
        assertThat(((Signable.Digest) of(curve, hex, HashFunction.HASH_FUNCTION_SHA256, RAW)).digest())
                .isEqualTo(Digests.sha256(MESSAGE));
        assertThat(((Signable.Digest) of(curve, hex, HashFunction.HASH_FUNCTION_KECCAK256, RAW)).digest())
                .isEqualTo(Digests.keccak256(MESSAGE));
        assertThat(((Signable.Digest) of(curve, hex, HashFunction.HASH_FUNCTION_NO_OP, DIGEST)).digest())
                .isEqualTo(new byte[32]);
        assertThatThrownBy(() -> of(curve, hex, HashFunction.HASH_FUNCTION_NO_OP, RAW))
                .isInstanceOfSatisfying(ApiException.class, isError(ErrorCode.BAD_REQUEST, null))
                .hasMessage("with HASH_FUNCTION_NO_OP the payload is the digest to sign and must be 32 bytes, not 7");
        assertThatThrownBy(() -> of(curve, hex, HashFunction.HASH_FUNCTION_NOT_APPLICABLE, RAW))
                .isInstanceOfSatisfying(ApiException.class, isError(ErrorCode.BAD_REQUEST, null))
                .hasMessage("hash function HASH_FUNCTION_NOT_APPLICABLE is only for CURVE_ED25519 keys; "
                        + curve.wireName() + " signs a digest: use HASH_FUNCTION_NO_OP, HASH_FUNCTION_SHA256 or "
                        + "HASH_FUNCTION_KECCAK256");
    }

    @Test
    void typedDataIsSignedOverItsEip712DigestOnSecp256k1Only() {
        byte[] expected = HexFormat.of().parseHex("be609aee343fb3c4b28e1df9e632fca64fcfaede20f02e86244efddf30957bd2");
        for (HashFunction hash :
                new HashFunction[] {HashFunction.HASH_FUNCTION_NO_OP, HashFunction.HASH_FUNCTION_KECCAK256}) {
            assertThat(((Signable.Digest) of(KeyCurve.SECP256K1, PayloadEncoding.PAYLOAD_ENCODING_EIP712, hash, TYPED))
                            .digest())
                    .isEqualTo(expected);
        }
        assertThatThrownBy(() -> of(
                        KeyCurve.SECP256K1,
                        PayloadEncoding.PAYLOAD_ENCODING_EIP712,
                        HashFunction.HASH_FUNCTION_SHA256,
                        TYPED))
                .isInstanceOfSatisfying(ApiException.class, isError(ErrorCode.BAD_REQUEST, null))
                .hasMessage("payload encoding PAYLOAD_ENCODING_EIP712 is hashed with keccak-256 as its standard says: "
                        + "use HASH_FUNCTION_NO_OP or HASH_FUNCTION_KECCAK256");
        assertThatThrownBy(() -> of(
                        KeyCurve.P256,
                        PayloadEncoding.PAYLOAD_ENCODING_EIP712,
                        HashFunction.HASH_FUNCTION_NO_OP,
                        TYPED))
                .isInstanceOfSatisfying(ApiException.class, isError(ErrorCode.BAD_REQUEST, null))
                .hasMessage("payload encoding PAYLOAD_ENCODING_EIP712 needs a CURVE_SECP256K1 key, not CURVE_P256");
    }

    @Test
    void payloadsAreDecodedPerEncodingNamingTheFieldOnError() {
        assertThat(((Payload.Raw) Payload.decode(PayloadEncoding.PAYLOAD_ENCODING_HEXADECIMAL, "0xABcd", "f")).bytes())
                .containsExactly(0xab, 0xcd);
        assertThat(((Payload.Raw) Payload.decode(PayloadEncoding.PAYLOAD_ENCODING_TEXT_UTF8, "é", "f")).bytes())
                .containsExactly(0xc3, 0xa9);
        assertThatThrownBy(() -> Payload.decode(PayloadEncoding.PAYLOAD_ENCODING_HEXADECIMAL, "0xabc", "p.payload"))
                .isInstanceOfSatisfying(ApiException.class, isError(ErrorCode.BAD_REQUEST, "p.payload"))
                .hasMessage("bad request body: p.payload must be hexadecimal with an even number of digits");
        assertThatThrownBy(() -> Payload.decode(PayloadEncoding.PAYLOAD_ENCODING_EIP712, "[1]", "p.payload"))
                .isInstanceOfSatisfying(ApiException.class, isError(ErrorCode.BAD_REQUEST, "p.payload"))
                .hasMessage("bad request body: p.payload must be a JSON object");
        assertThatThrownBy(() -> Payload.decode(
                        PayloadEncoding.PAYLOAD_ENCODING_EIP7702_AUTHORIZATION,
                        "{\"address\":\"0x12\",\"chainId\":1,\"nonce\":0}",
                        "p.payload"))
                .isInstanceOfSatisfying(ApiException.class, isError(ErrorCode.BAD_REQUEST, "p.payload"))
                .hasMessageStartingWith("bad request body: p.payload is not a valid EIP-7702 authorization: ");
    }
}
