package dev.keyhaven.crypto.eth;

import static org.assertj.core.api.Assertions.assertThat;

import dev.keyhaven.crypto.Digests;
import dev.keyhaven.crypto.EcCurve;
import dev.keyhaven.crypto.KeyCurve;
import dev.keyhaven.crypto.SecretBytes;
import dev.keyhaven.crypto.sign.PayloadSigner;
import dev.keyhaven.crypto.sign.Signature;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The EIP's own worked example, every intermediate value of Example.js included. */
class Eip712SpecExampleTest {
    private static final HexFormat HEX = HexFormat.of();
    private static final Map<String, Object> VECTOR =
            TestJson.object(TestJson.resource("/vectors/eth/eip712-spec-mail.json"));
    private static final Map<String, Object> TYPED_DATA = TestJson.object(VECTOR.get("typedData"));

    private static String hex(byte[] bytes) {
        return "0x" + HEX.formatHex(bytes);
    }

    private static Eip712Types types() {
        return Eip712Types.parse((Map<?, ?>) TYPED_DATA.get("types"), (Map<?, ?>) TYPED_DATA.get("domain"));
    }

    @Test
    void encodesTheMailTypeWithItsReferencedPersonType() {
        assertThat(types().encodeType("Mail")).isEqualTo(VECTOR.get("encodeType"));
        assertThat(hex(types().typeHash("Mail"))).isEqualTo(VECTOR.get("typeHash"));
    }

    @Test
    void hashesTheDomainAndTheMessageLikeTheSpec() {
        assertThat(hex(Eip712.domainSeparator(TYPED_DATA))).isEqualTo(VECTOR.get("domainSeparator"));
        assertThat(hex(Eip712.hashMessage(TYPED_DATA))).isEqualTo(VECTOR.get("hashStruct"));
        assertThat(hex(Eip712.hash(TYPED_DATA))).isEqualTo(VECTOR.get("digest"));
    }

    @Test
    void signsTheDigestWithTheCowKeyToTheSpecsSignature() {
        byte[] digest = Eip712.hash(TYPED_DATA);
        byte[] cow = Digests.keccak256(((String) VECTOR.get("privateKeyPreimage")).getBytes(StandardCharsets.UTF_8));
        Signature sig;
        byte[] publicKey;
        try (SecretBytes key = SecretBytes.adopt(cow)) {
            sig = PayloadSigner.signDigest(KeyCurve.SECP256K1, key, digest);
            publicKey = KeyCurve.SECP256K1.publicKey(key);
        }
        assertThat("0x" + sig.rHex()).isEqualTo(VECTOR.get("r"));
        assertThat("0x" + sig.sHex()).isEqualTo(VECTOR.get("s"));
        assertThat(sig.v() + 27).isEqualTo(VECTOR.get("v"));
        assertThat(sig.vHex()).isEqualTo("01");
        assertThat(PayloadSigner.recoverPublicKey(KeyCurve.SECP256K1, digest, sig))
                .isEqualTo(publicKey);
        assertThat(hex(ethereumAddress(publicKey))).isEqualTo(VECTOR.get("address"));
    }

    private static byte[] ethereumAddress(byte[] compressedPublicKey) {
        byte[] uncompressed = EcCurve.SECP256K1.decompress(compressedPublicKey);
        byte[] hash = Digests.keccak256(Arrays.copyOfRange(uncompressed, 1, 65));
        return Arrays.copyOfRange(hash, 12, 32);
    }
}
