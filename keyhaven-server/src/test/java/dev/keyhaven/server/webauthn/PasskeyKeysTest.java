package dev.keyhaven.server.webauthn;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.webauthn4j.converter.util.ObjectConverter;
import com.webauthn4j.data.attestation.authenticator.COSEKey;
import com.webauthn4j.data.attestation.authenticator.EC2COSEKey;
import com.webauthn4j.data.attestation.authenticator.EdDSACOSEKey;
import com.webauthn4j.data.attestation.authenticator.RSACOSEKey;
import com.webauthn4j.data.attestation.statement.COSEAlgorithmIdentifier;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.interfaces.ECPublicKey;
import java.security.interfaces.EdECPublicKey;
import java.security.interfaces.RSAPublicKey;
import java.security.spec.ECGenParameterSpec;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;

class PasskeyKeysTest {
    private final PasskeyKeys keys = new PasskeyKeys(new ObjectConverter().getCborMapper());

    @Test
    void showsAP256KeyCompressed() throws GeneralSecurityException {
        KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
        generator.initialize(new ECGenParameterSpec("secp256r1"));
        ECPublicKey publicKey = (ECPublicKey) generator.generateKeyPair().getPublic();

        String hex = keys.apiPublicKey(EC2COSEKey.create(publicKey, COSEAlgorithmIdentifier.ES256));

        byte[] x = publicKey.getW().getAffineX().toByteArray();
        String expectedX = HexFormat.of().formatHex(x, Math.max(0, x.length - 32), x.length);
        assertThat(hex)
                .hasSize(66)
                .startsWith(publicKey.getW().getAffineY().testBit(0) ? "03" : "02")
                .endsWith(expectedX);
    }

    @Test
    void showsAnEd25519KeyRaw() throws GeneralSecurityException {
        KeyPair pair = KeyPairGenerator.getInstance("Ed25519").generateKeyPair();
        EdDSACOSEKey cose = EdDSACOSEKey.create((EdECPublicKey) pair.getPublic(), COSEAlgorithmIdentifier.EdDSA);

        assertThat(keys.apiPublicKey(cose)).isEqualTo(HexFormat.of().formatHex(cose.getX()));
    }

    @Test
    void refusesOtherKeyTypes() throws GeneralSecurityException {
        KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
        generator.initialize(2048);
        RSACOSEKey rsa = RSACOSEKey.create(
                (RSAPublicKey) generator.generateKeyPair().getPublic(), COSEAlgorithmIdentifier.RS256);

        assertThatThrownBy(() -> keys.apiPublicKey(rsa))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("only ES256 (P-256) and EdDSA (Ed25519)");
    }

    @Test
    void storesAndReadsBackTheCoseKey() throws GeneralSecurityException {
        KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
        generator.initialize(new ECGenParameterSpec("secp256r1"));
        EC2COSEKey cose =
                EC2COSEKey.create((ECPublicKey) generator.generateKeyPair().getPublic(), COSEAlgorithmIdentifier.ES256);

        COSEKey read = keys.fromCoseHex(keys.coseHex(cose));

        assertThat(read).isEqualTo(cose);
        assertThat(read.getPublicKey()).isEqualTo(cose.getPublicKey());
    }

    @Test
    void aStoredValueThatIsNotACoseKeyIsAnInternalError() {
        assertThatThrownBy(() -> keys.fromCoseHex("00ff")).isInstanceOf(IllegalStateException.class);
    }
}
