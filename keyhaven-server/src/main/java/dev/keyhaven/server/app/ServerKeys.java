package dev.keyhaven.server.app;

import dev.keyhaven.server.custody.BundleSigner;
import dev.keyhaven.server.custody.Custody;
import dev.keyhaven.server.custody.CustodyRepository;
import dev.keyhaven.server.custody.DataSealer;
import dev.keyhaven.server.custody.EnvelopeKey;
import dev.keyhaven.server.custody.HpkeTargets;
import dev.keyhaven.server.custody.JwtIssuer;
import dev.keyhaven.server.custody.KeySealer;
import dev.keyhaven.server.custody.KeyTransfer;
import dev.keyhaven.server.custody.MasterKey;
import dev.keyhaven.server.custody.MasterKeyGuard;
import dev.keyhaven.server.custody.OidcTokenSigner;
import dev.keyhaven.server.oauth2.Oauth2ClientSecrets;
import dev.keyhaven.server.otp.OtpKeys;
import dev.keyhaven.server.tx.Transactor;
import java.security.SecureRandom;
import java.time.Clock;

/**
 * Keyhaven's own keys, opened under the master key (each generated and sealed on first start), as custody's handles:
 * the sealer and custody every feature's keys go through, the bundle signer (export and import bundles), the OTP and
 * session signers (the session JWTs' issuer), the OIDC token signer, HPKE targets, and the OAuth 2.0
 * credential-encryption key with the sealer of client secrets; and the features' protocols built on them (OTP keys,
 * OAuth 2.0 client secrets). Closing it closes the signers.
 */
final class ServerKeys implements AutoCloseable {
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
            KeySealer sealer, Transactor transactor, CustodyRepository repository, SecureRandom random, Clock clock) {
        this.sealer = sealer;
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
     * Opens the master key (refusing one that does not match the database) and loads every key under it.
     */
    static ServerKeys open(
            KeyhavenConfig config,
            Transactor transactor,
            CustodyRepository repository,
            SecureRandom random,
            Clock clock) {
        MasterKey masterKey = new MasterKeyGuard(transactor, repository, random, clock)
                .open(config.effectiveMasterKeyFile(), config.masterKeyFile().isPresent());
        return new ServerKeys(new KeySealer(masterKey, random), transactor, repository, random, clock);
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
    }
}
