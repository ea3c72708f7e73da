package dev.keyhaven.server.app;

import dev.keyhaven.server.custody.BundleSigner;
import dev.keyhaven.server.custody.Custody;
import dev.keyhaven.server.custody.CustodyRepository;
import dev.keyhaven.server.custody.DataKeyRepository;
import dev.keyhaven.server.custody.DataKeys;
import dev.keyhaven.server.custody.DataSealer;
import dev.keyhaven.server.custody.EnvelopeKey;
import dev.keyhaven.server.custody.FileKek;
import dev.keyhaven.server.custody.HpkeTargets;
import dev.keyhaven.server.custody.JwtIssuer;
import dev.keyhaven.server.custody.Kek;
import dev.keyhaven.server.custody.KeySealer;
import dev.keyhaven.server.custody.KeyTransfer;
import dev.keyhaven.server.custody.LegacySeals;
import dev.keyhaven.server.custody.MasterKeyGuard;
import dev.keyhaven.server.custody.OidcTokenSigner;
import dev.keyhaven.server.oauth2.Oauth2ClientSecrets;
import dev.keyhaven.server.otp.OtpKeys;
import dev.keyhaven.server.tx.Transactor;
import java.security.SecureRandom;
import java.time.Clock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keyhaven's own keys, opened under the KEK through the data keys of envelope encryption (each generated and sealed
 * on first start), as custody's handles: the sealer and custody every feature's keys go through, the bundle signer
 * (export and import bundles), the OTP and session signers (the session JWTs' issuer), the OIDC token signer, HPKE
 * targets, and the OAuth 2.0 credential-encryption key with the sealer of client secrets; and the features' protocols
 * built on them (OTP keys, OAuth 2.0 client secrets). Closing it closes the signers and the KEK.
 */
final class ServerKeys implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(Keyhaven.class);

    final DataKeys dataKeys;
    final KeySealer sealer;
    final Custody custody;
    final BundleSigner bundleSigner;
    final KeyTransfer transfer;
    final BundleSigner otpSigner;
    final BundleSigner sessionSigner;
    final JwtIssuer sessionTokens;
    final OidcTokenSigner oidcTokenSigner;
    final HpkeTargets hpkeTargets;
    final Oauth2ClientSecrets oauth2Secrets;

    private ServerKeys(
            DataKeys dataKeys, Transactor transactor, CustodyRepository repository, SecureRandom random, Clock clock) {
        this.dataKeys = dataKeys;
        this.sealer = new KeySealer(dataKeys, random);
        this.custody = new Custody(sealer, random);
        this.bundleSigner = BundleSigner.load(transactor, repository, sealer, random, clock);
        this.transfer = new KeyTransfer(sealer, bundleSigner, random);
        this.oidcTokenSigner = OidcTokenSigner.load(transactor, repository, sealer, random, clock);
        this.otpSigner = BundleSigner.load(BundleSigner.Role.OTP, transactor, repository, sealer, random, clock);
        this.sessionSigner =
                BundleSigner.load(BundleSigner.Role.SESSION, transactor, repository, sealer, random, clock);
        this.sessionTokens = sessionSigner.jwtIssuer(JwtIssuer.Digest.TURNKEY_SESSION);
        this.hpkeTargets = new HpkeTargets(sealer, random);
        this.oauth2Secrets = new Oauth2ClientSecrets(
                EnvelopeKey.loadOauth2(transactor, repository, sealer, random, clock), new DataSealer(sealer));
    }

    /**
     * Opens the KEK (refusing one that does not open the database), moves any secret still sealed directly under it
     * under its owner's data key, and loads every key.
     */
    static ServerKeys open(
            KeyhavenConfig config,
            Transactor transactor,
            CustodyRepository repository,
            DataKeyRepository dataKeyRepository,
            SecureRandom random,
            Clock clock) {
        // Chosen first, so that a library the operator named and cannot be used is the one line a refusal prints;
        // logged last, so that a KEK that refuses is one line too.
        String secp256k1 = Custody.secp256k1Implementation();
        Kek kek = config.hsmKek().isPresent()
                ? config.hsmKek().get().open(random)
                : new FileKek(
                        new MasterKeyGuard(transactor, dataKeyRepository, random)
                                .open(
                                        config.effectiveMasterKeyFile(),
                                        config.masterKeyFile().isPresent()),
                        random);
        DataKeys dataKeys =
                DataKeys.open(transactor, dataKeyRepository, kek, locator -> locator.open(random), random, clock);
        ServerKeys keys = new ServerKeys(dataKeys, transactor, repository, random, clock);
        LegacySeals.upgrade(transactor, dataKeyRepository, keys.sealer);
        LOG.info("secp256k1 signatures by {}", secp256k1);
        return keys;
    }

    /** The keys one-time codes are sealed and their tokens signed with. */
    OtpKeys otpKeys() {
        return new OtpKeys(hpkeTargets, otpSigner);
    }

    @Override
    public void close() {
        otpSigner.close();
        sessionSigner.close();
        bundleSigner.close();
        oidcTokenSigner.close();
        dataKeys.close();
    }
}
