package dev.keyhaven.server.oauth2;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.keyhaven.crypto.SecretBytes;
import dev.keyhaven.crypto.bundle.QuorumEnvelope;
import dev.keyhaven.server.api.ApiException;
import dev.keyhaven.server.custody.CustodyException;
import dev.keyhaven.server.custody.DataSealer;
import dev.keyhaven.server.custody.EnvelopeKey;
import dev.keyhaven.server.custody.InMemoryKeys;
import dev.keyhaven.server.custody.KeySealer;
import dev.keyhaven.server.custody.MasterKey;
import dev.keyhaven.server.custody.SealPurpose;
import dev.keyhaven.server.custody.SealedSecret;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Clock;
import java.util.Base64;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The credential-encryption key is generated once and then reused; a re-sealed secret opens only for its own
 * organization and credential, and only into the HTTP Basic header of its client.
 */
class Oauth2ClientSecretsTest {
    private static final SecureRandom RANDOM = new SecureRandom();
    private static final String FIELD = "parameters.encryptedClientSecret";

    @TempDir
    Path directory;

    private static String envelope(String publicKeyHex, String secret) {
        try (SecretBytes plain = SecretBytes.copyOf(secret.getBytes(StandardCharsets.UTF_8))) {
            return HexFormat.of().formatHex(QuorumEnvelope.seal(HexFormat.of().parseHex(publicKeyHex), plain, RANDOM));
        }
    }

    private static Oauth2ClientSecrets load(KeySealer sealer, InMemoryKeys.Signers rows) {
        return new Oauth2ClientSecrets(
                EnvelopeKey.loadOauth2(InMemoryKeys.DIRECT, rows, sealer, RANDOM, Clock.systemUTC()),
                new DataSealer(sealer));
    }

    @Test
    void aResealedSecretOpensOnlyForItsCredentialIntoItsClientsBasicHeader() {
        KeySealer sealer = InMemoryKeys.sealer(MasterKey.generate(directory.resolve("kek"), RANDOM));
        InMemoryKeys.Signers rows = new InMemoryKeys.Signers();
        Oauth2ClientSecrets secrets = load(sealer, rows);
        assertThat(secrets.encryptionPublicKey()).matches("04[0-9a-f]{128}");
        assertThat(load(sealer, rows).encryptionPublicKey())
                .as("loaded again, not generated again")
                .isEqualTo(secrets.encryptionPublicKey());

        SealedSecret sealed = secrets.reseal(
                InMemoryKeys.TX, "org-1", "cred-1", envelope(secrets.encryptionPublicKey(), "s3cr:t é"), FIELD);
        assertThat(secrets.basicAuthorization("org-1", "cred-1", sealed, "client id"))
                .isEqualTo("Basic "
                        + Base64.getEncoder()
                                .encodeToString("client+id:s3cr%3At+%C3%A9".getBytes(StandardCharsets.UTF_8)));
        assertThatThrownBy(() -> secrets.basicAuthorization("org-1", "cred-2", sealed, "client id"))
                .isInstanceOf(CustodyException.class);
        assertThatThrownBy(() -> secrets.basicAuthorization("org-2", "cred-1", sealed, "client id"))
                .isInstanceOf(CustodyException.class);
        assertThat(rows.signers).as("the key's row keeps its name").containsOnlyKeys("oauth2-encryption-key");
    }

    @Test
    void theSealerOfClientSecretsOpensNoKey() {
        KeySealer sealer = InMemoryKeys.sealer(MasterKey.generate(directory.resolve("kek"), RANDOM));
        DataSealer data = new DataSealer(sealer);
        for (SealPurpose keys : new SealPurpose[] {
            SealPurpose.WALLET_MNEMONIC, SealPurpose.PRIVATE_KEY, SealPurpose.IMPORT_TARGET, SealPurpose.OTP_TARGET
        }) {
            SealedSecret sealed;
            try (SecretBytes secret = SecretBytes.copyOf(new byte[32])) {
                sealed = sealer.seal(InMemoryKeys.TX, keys, "org", "res", secret);
            }
            assertThatThrownBy(() -> data.open(keys, "org", "res", sealed))
                    .as(keys.name())
                    .isInstanceOf(IllegalStateException.class);
        }
    }

    @Test
    void envelopesThatDoNotOpenAreRefusedNamingTheFieldWithoutQuotingThem() {
        KeySealer sealer = InMemoryKeys.sealer(MasterKey.generate(directory.resolve("kek"), RANDOM));
        Oauth2ClientSecrets secrets = load(sealer, new InMemoryKeys.Signers());
        Oauth2ClientSecrets other = load(sealer, new InMemoryKeys.Signers());
        String foreign = envelope(other.encryptionPublicKey(), "secret");
        for (String bad :
                new String[] {foreign, "xyz", "00".repeat(40), "ab".repeat(Oauth2ClientSecrets.MAX_ENVELOPE_HEX)}) {
            assertThatThrownBy(() -> secrets.reseal(InMemoryKeys.TX, "org", "cred", bad, FIELD))
                    .isInstanceOfSatisfying(ApiException.class, e -> {
                        assertThat(e.field()).contains(FIELD);
                        assertThat(e.getMessage()).doesNotContain(bad);
                    });
        }
    }
}
