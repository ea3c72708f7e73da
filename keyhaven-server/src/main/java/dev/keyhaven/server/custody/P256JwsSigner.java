package dev.keyhaven.server.custody;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.JWSSigner;
import com.nimbusds.jose.jca.JCAContext;
import com.nimbusds.jose.util.Base64URL;
import dev.keyhaven.crypto.Digests;
import dev.keyhaven.crypto.SigningKey;
import java.util.Set;

/**
 * Nimbus's {@link JWSSigner} over a P-256 key that stays in custody: Nimbus builds and serializes the JWS, this signs
 * its signing input with ECDSA P-256 (RFC 6979, low-S) and answers the raw {@code r ‖ s} ES256 carries. With
 * {@link JwtIssuer.Digest#TURNKEY_SESSION} the ECDSA input is SHA-256 of the signing input, so the signature is over
 * its double SHA-256, as Turnkey's session JWTs are ({@code verifySessionJwtSignature}).
 */
final class P256JwsSigner implements JWSSigner {
    private final SigningKey key;
    private final JwtIssuer.Digest digest;
    private final JCAContext jca = new JCAContext();

    /** Signs with {@code key} (a P-256 key the caller keeps and closes). */
    P256JwsSigner(SigningKey key, JwtIssuer.Digest digest) {
        this.key = key;
        this.digest = digest;
    }

    @Override
    public Base64URL sign(JWSHeader header, byte[] signingInput) throws JOSEException {
        if (!JWSAlgorithm.ES256.equals(header.getAlgorithm())) {
            throw new JOSEException("this key signs ES256 only, not " + header.getAlgorithm());
        }
        byte[] input = digest == JwtIssuer.Digest.TURNKEY_SESSION ? Digests.sha256(signingInput) : signingInput;
        return Base64URL.encode(EcdsaSignatures.derToRaw(key.sign(input)));
    }

    @Override
    public Set<JWSAlgorithm> supportedJWSAlgorithms() {
        return Set.of(JWSAlgorithm.ES256);
    }

    @Override
    public JCAContext getJCAContext() {
        return jca;
    }

    @Override
    public String toString() {
        return "P256JwsSigner[" + digest + "]";
    }
}
