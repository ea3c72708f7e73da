package dev.keyhaven.server.app;

import static org.assertj.core.api.Assertions.assertThat;

import dev.keyhaven.client.Activity;
import dev.keyhaven.client.KeyhavenClient;
import dev.keyhaven.client.Requests.WalletAccountParams;
import dev.keyhaven.crypto.KeyCurve;
import dev.keyhaven.crypto.SecretBytes;
import dev.keyhaven.crypto.SecretKeyAccess;
import dev.keyhaven.crypto.hd.DerivationPath;
import dev.keyhaven.crypto.hd.HdKeys;
import dev.keyhaven.crypto.hd.Mnemonic;
import dev.keyhaven.server.testing.Bundles;
import dev.keyhaven.server.testing.Bundles.TargetKey;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import org.bouncycastle.crypto.params.Ed25519PublicKeyParameters;
import org.bouncycastle.crypto.signers.Ed25519Signer;
import tools.jackson.databind.JsonNode;

/**
 * A wallet made for a backup test, with its secrets as the test knows them (by exporting the mnemonic) so it can
 * look for them in the backup, and a check that a server on the restored data still signs with it.
 */
record BackupWallet(String walletId, String address, String publicKey, byte[] mnemonic, byte[] privateKey) {
    private static final HexFormat HEX = HexFormat.of();
    private static final String PATH = "m/44'/501'/0'/0'";

    /** Creates a wallet with one Ed25519 (Solana) account and exports its mnemonic to learn the secrets. */
    static BackupWallet create(KeyhavenClient client, String baseUrl) {
        Activity wallet = client.createWallet(
                "backed-up", List.of(WalletAccountParams.of("CURVE_ED25519", PATH, "ADDRESS_FORMAT_SOLANA")));
        assertThat(wallet.status()).isEqualTo("ACTIVITY_STATUS_COMPLETED");
        String walletId = wallet.result().path("walletId").asString();
        JsonNode account = client.query("list_wallet_accounts", Map.of("walletId", walletId))
                .path("accounts")
                .get(0);
        TargetKey target = TargetKey.generate();
        Activity exported = client.submit(
                "export_wallet",
                "ACTIVITY_TYPE_EXPORT_WALLET",
                Map.of("walletId", walletId, "targetPublicKey", target.uncompressed()),
                "exportWalletResult");
        byte[] phrase = Bundles.openExport(
                exported.result().path("exportBundle").asString(),
                Bundles.discoveredSigner(baseUrl),
                client.organizationId(),
                target);
        byte[] privateKey;
        try (Mnemonic mnemonic = Mnemonic.parse(SecretBytes.copyOf(phrase));
                SecretBytes seed = mnemonic.toSeed();
                SecretBytes key = HdKeys.derivePrivateKey(KeyCurve.ED25519, seed, DerivationPath.parse(PATH))) {
            privateKey = key.apply(SecretKeyAccess.get(), byte[]::clone);
            assertThat(HEX.formatHex(KeyCurve.ED25519.publicKey(key)))
                    .as("the exported mnemonic derives the account")
                    .isEqualTo(account.path("publicKey").asString());
        }
        return new BackupWallet(
                walletId,
                account.path("address").asString(),
                account.path("publicKey").asString(),
                phrase,
                privateKey);
    }

    /** Signs with the account through {@code client} and verifies the Ed25519 signature against its public key. */
    void assertSignsWith(KeyhavenClient client) {
        byte[] message = "signed after restore".getBytes(StandardCharsets.UTF_8);
        Activity signed = client.signRawPayload(
                address, HEX.formatHex(message), "PAYLOAD_ENCODING_HEXADECIMAL", "HASH_FUNCTION_NOT_APPLICABLE");
        assertThat(signed.status()).isEqualTo("ACTIVITY_STATUS_COMPLETED");
        Ed25519Signer verifier = new Ed25519Signer();
        verifier.init(false, new Ed25519PublicKeyParameters(HEX.parseHex(publicKey)));
        verifier.update(message, 0, message.length);
        assertThat(verifier.verifySignature(
                        HEX.parseHex(signed.result().path("r").asString()
                                + signed.result().path("s").asString())))
                .as("the restored key's signature verifies against the account's public key")
                .isTrue();
    }

    /** The byte strings that must never appear in a backup: the mnemonic and the private key, raw and in hex. */
    List<byte[]> secrets() {
        return List.of(
                mnemonic,
                privateKey,
                HEX.formatHex(privateKey).getBytes(StandardCharsets.US_ASCII),
                HEX.formatHex(mnemonic).getBytes(StandardCharsets.US_ASCII));
    }

    /** Whether {@code haystack} contains {@code needle} anywhere. */
    static boolean contains(byte[] haystack, byte[] needle) {
        outer:
        for (int i = 0; i + needle.length <= haystack.length; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (haystack[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return true;
        }
        return false;
    }
}
