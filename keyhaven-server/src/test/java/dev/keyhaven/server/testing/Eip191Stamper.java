package dev.keyhaven.server.testing;

import dev.keyhaven.client.Stamper;
import dev.keyhaven.crypto.EcCurve;
import dev.keyhaven.crypto.VerifyingKey;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.HexFormat;
import org.bouncycastle.crypto.digests.SHA256Digest;
import org.bouncycastle.crypto.params.ECPrivateKeyParameters;
import org.bouncycastle.crypto.signers.ECDSASigner;
import org.bouncycastle.crypto.signers.HMacDSAKCalculator;
import org.bouncycastle.crypto.signers.StandardDSAEncoding;
import org.bouncycastle.math.ec.FixedPointCombMultiplier;

/**
 * Stamps like Turnkey's wallet stamper for Ethereum wallets: secp256k1 over the EIP-191 digest of the body, DER
 * signature, compressed public key, scheme {@code SIGNATURE_SCHEME_TK_API_SECP256K1_EIP191}.
 */
public final class Eip191Stamper implements Stamper {
    private final BigInteger privateKey;
    private final String publicKey;

    public Eip191Stamper(SecureRandom random) {
        BigInteger d;
        do {
            d = new BigInteger(256, random);
        } while (d.signum() == 0 || d.compareTo(EcCurve.SECP256K1.order()) >= 0);
        this.privateKey = d;
        this.publicKey = HexFormat.of()
                .formatHex(new FixedPointCombMultiplier()
                        .multiply(EcCurve.SECP256K1.domain().getG(), d)
                        .normalize()
                        .getEncoded(true));
    }

    /** The compressed public key to register as an API_KEY_CURVE_SECP256K1 key. */
    public String publicKey() {
        return publicKey;
    }

    @Override
    public Stamp stamp(byte[] body) {
        ECDSASigner signer = new ECDSASigner(new HMacDSAKCalculator(new SHA256Digest()));
        signer.init(true, new ECPrivateKeyParameters(privateKey, EcCurve.SECP256K1.domain()));
        BigInteger[] rs = signer.generateSignature(VerifyingKey.eip191Digest(body));
        String der;
        try {
            der = HexFormat.of()
                    .formatHex(StandardDSAEncoding.INSTANCE.encode(EcCurve.SECP256K1.order(), rs[0], rs[1]));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        String json = "{\"publicKey\":\"" + publicKey + "\",\"scheme\":\"SIGNATURE_SCHEME_TK_API_SECP256K1_EIP191\","
                + "\"signature\":\"" + der + "\"}";
        return new Stamp(
                "X-Stamp",
                Base64.getUrlEncoder().withoutPadding().encodeToString(json.getBytes(StandardCharsets.UTF_8)));
    }
}
