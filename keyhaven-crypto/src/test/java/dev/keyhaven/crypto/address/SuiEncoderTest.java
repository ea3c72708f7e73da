package dev.keyhaven.crypto.address;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.keyhaven.crypto.KeyCurve;
import dev.keyhaven.crypto.SecretBytes;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;

/**
 * Sui's ECDSA scheme flags, which {@link AddressFormat#SUI} does not admit (Turnkey uses Ed25519 for Sui) but the
 * encoder keeps ready. Keys and addresses from MystenLabs/sui sdk/typescript/test/unit/cryptography/keypair.test.ts.
 */
class SuiEncoderTest {
    private static final HexFormat HEX = HexFormat.of();

    @Test
    void secp256k1KeyIsHashedBehindFlagOne() {
        byte[] key = publicKey(KeyCurve.SECP256K1, "3b940b5586823dfd02ae3b461bb4336b5ecbaefd6627aa922efc048fec0c881c");

        assertThat(new SuiEncoder().encode(KeyCurve.SECP256K1, key))
                .isEqualTo("0x7e4f9a35bf3b5383802d990956d6f3c93e6184ebbbcf0820c124ab3a59ef77ac");
    }

    @Test
    void p256KeyIsHashedBehindFlagTwo() {
        byte[] key = publicKey(KeyCurve.P256, "42258dcda14cf111c602b8971b8cc843e91e46ca905151c02744a6b017e69316");

        assertThat(new SuiEncoder().encode(KeyCurve.P256, key))
                .isEqualTo("0x318f591092f10b67a81963954fb9539ea3919444417726be4e1b95ce44fe2fc0");
    }

    @Test
    void theSuiFormatStillRejectsEcdsaCurves() {
        byte[] key = publicKey(KeyCurve.SECP256K1, "3b940b5586823dfd02ae3b461bb4336b5ecbaefd6627aa922efc048fec0c881c");

        assertThatThrownBy(() -> Addresses.encode(AddressFormat.SUI, KeyCurve.SECP256K1, key))
                .isInstanceOf(IncompatibleCurveException.class);
    }

    private static byte[] publicKey(KeyCurve curve, String privateKeyHex) {
        try (SecretBytes secret = SecretBytes.copyOf(HEX.parseHex(privateKeyHex))) {
            return curve.publicKey(secret);
        }
    }
}
