package dev.keyhaven.server.custody;

import static dev.keyhaven.server.testing.ApiErrors.apiError;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.keyhaven.client.KeyhavenClient;
import dev.keyhaven.client.Requests.PrivateKeyParams;
import dev.keyhaven.client.Requests.WalletAccountParams;
import dev.keyhaven.crypto.SecretBytes;
import dev.keyhaven.crypto.SecretKeyAccess;
import dev.keyhaven.server.app.Keyhaven;
import dev.keyhaven.server.app.KeyhavenConfig;
import dev.keyhaven.server.testing.StoreKind;
import dev.keyhaven.server.testing.TestServer;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;
import org.bouncycastle.asn1.sec.SECNamedCurves;
import org.bouncycastle.crypto.params.ECDomainParameters;
import org.bouncycastle.crypto.params.ECPublicKeyParameters;
import org.bouncycastle.crypto.signers.ECDSASigner;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Custody at rest: the KEK is generated once into the data directory (0600), a different or missing KEK refuses
 * to start, stored keys are sealed under their organization's data key, a sealed key moved to another row does not
 * open, and a key sealed in the format from before envelope encryption moves under its data key at start.
 */
class CustodyIT {

    private static KeyhavenConfig config(Path directory, String url) {
        return KeyhavenConfig.defaults(directory).withPort(0).withDatabaseUrl(Optional.of(url));
    }

    @ParameterizedTest
    @EnumSource(StoreKind.class)
    void theFirstStartGeneratesAKekAndLaterStartsNeedTheSameOne(StoreKind store, @TempDir Path directory)
            throws Exception {
        String url = store.freshDatabase(directory);
        try {
            Keyhaven.open(config(directory, url), Clock.systemUTC()).close();
            Path kek = directory.resolve("master.key");
            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(kek)))
                    .isEqualTo("rw-------");
            String first = Files.readString(kek);
            Keyhaven.open(config(directory, url), Clock.systemUTC()).close();
            assertThat(Files.readString(kek)).isEqualTo(first);

            Path other = directory.resolve("other.key");
            Files.writeString(other, "11".repeat(32) + "\n");
            assertThatThrownBy(() -> Keyhaven.open(
                            config(directory, url).withMasterKeyFile(Optional.of(other)), Clock.systemUTC()))
                    .isInstanceOf(CustodyException.class)
                    .hasMessageContaining("does not open this database");

            Files.move(kek, directory.resolve("moved.key"));
            assertThatThrownBy(() -> Keyhaven.open(config(directory, url), Clock.systemUTC()))
                    .isInstanceOf(CustodyException.class)
                    .hasMessageContaining("refusing to create a new one");
            assertThat(kek).doesNotExist();

            assertThatThrownBy(() -> Keyhaven.open(
                            config(directory, url).withMasterKeyFile(Optional.of(directory.resolve("absent.key"))),
                            Clock.systemUTC()))
                    .isInstanceOf(CustodyException.class)
                    .hasMessageContaining("does not exist");

            Files.writeString(other, "not hex");
            assertThatThrownBy(() -> Keyhaven.open(
                            config(directory, url).withMasterKeyFile(Optional.of(other)), Clock.systemUTC()))
                    .isInstanceOf(CustodyException.class)
                    .hasMessageContaining("hex digits");

            Keyhaven.open(
                            config(directory, url).withMasterKeyFile(Optional.of(directory.resolve("moved.key"))),
                            Clock.systemUTC())
                    .close();
        } finally {
            store.drop(url);
        }
    }

    @ParameterizedTest
    @EnumSource(StoreKind.class)
    void keysAreStoredSealedAndOpenOnlyInTheirOwnRow(StoreKind store) throws Exception {
        try (TestServer server = TestServer.start(store)) {
            KeyhavenClient root = server.rootClient();
            var created = root.createPrivateKeys(List.of(
                            new PrivateKeyParams("first", "CURVE_SECP256K1", List.of(), List.of()),
                            new PrivateKeyParams("second", "CURVE_SECP256K1", List.of(), List.of())))
                    .result()
                    .path("privateKeys");
            String first = created.get(0).path("privateKeyId").asString();
            String second = created.get(1).path("privateKeyId").asString();
            root.createWallet("sealed", List.of(WalletAccountParams.ethereum(0)));
            String digest = "42".repeat(32);
            assertThat(root.signRawPayload(first, digest, "PAYLOAD_ENCODING_HEXADECIMAL", "HASH_FUNCTION_NO_OP")
                            .isCompleted())
                    .isTrue();

            String secondSealed;
            try (Connection db = DriverManager.getConnection(server.databaseUrl())) {
                List<String> sealed = column(db, "SELECT key_sealed FROM private_keys");
                sealed.addAll(column(db, "SELECT key_sealed FROM wallet_accounts"));
                sealed.addAll(column(db, "SELECT mnemonic_sealed FROM wallets"));
                // 1 version byte + 12 nonce + 32 key + 16 tag, base64: nothing stored is a bare 32-byte key.
                assertThat(sealed)
                        .hasSizeGreaterThanOrEqualTo(4)
                        .allSatisfy(
                                s -> assertThat(java.util.Base64.getDecoder().decode(s).length)
                                        .isGreaterThan(32 + 16));
                secondSealed = column(db, "SELECT key_sealed FROM private_keys WHERE id = '" + second + "'")
                        .getFirst();
                try (PreparedStatement move =
                        db.prepareStatement("UPDATE private_keys SET key_sealed = ? " + "WHERE id = ?")) {
                    move.setString(1, secondSealed);
                    move.setString(2, first);
                    move.executeUpdate();
                }
                // A change made behind the server's back must advance the state version, as activities do;
                // otherwise servers go on signing with the key they remember.
                try (var advance = db.createStatement()) {
                    advance.executeUpdate("UPDATE organizations SET state_version = state_version + 1");
                }
            }
            var moved = apiError(
                    () -> root.signRawPayload(first, digest, "PAYLOAD_ENCODING_HEXADECIMAL", "HASH_FUNCTION_NO_OP"));
            assertThat(moved.httpStatus()).isEqualTo(500);
            assertThat(moved.getMessage()).doesNotContain(secondSealed).doesNotContain(first);
            assertThat(root.signRawPayload(second, digest, "PAYLOAD_ENCODING_HEXADECIMAL", "HASH_FUNCTION_NO_OP")
                            .isCompleted())
                    .isTrue();
        }
    }

    @ParameterizedTest
    @EnumSource(StoreKind.class)
    void secretsSealedBeforeEnvelopeEncryptionMoveUnderTheirDataKeyAtStart(StoreKind store) throws Exception {
        try (TestServer server = TestServer.start(store)) {
            String privateKeyId = server.rootClient()
                    .createPrivateKeys(List.of(new PrivateKeyParams("old", "CURVE_SECP256K1", List.of(), List.of())))
                    .result()
                    .path("privateKeys")
                    .get(0)
                    .path("privateKeyId")
                    .asString();
            String publicKey = server.rootClient()
                    .getPrivateKey(privateKeyId)
                    .path("publicKey")
                    .asString();
            String organizationId = server.organizationId();
            // Turn the stored key back into the format from before envelope encryption: sealed directly under the
            // KEK, with the same binding.
            FileKek kek = new FileKek(MasterKey.load(server.dataDirectory().resolve("master.key")), new SecureRandom());
            String legacy;
            try (Connection db = DriverManager.getConnection(server.databaseUrl())) {
                SealedSecret sealed = new SealedSecret(
                        column(db, "SELECT key_sealed FROM private_keys WHERE id = '" + privateKeyId + "'")
                                .getFirst());
                SealedSecret wrapped = new SealedSecret(
                        column(db, "SELECT wrapped FROM data_keys WHERE owner_id = '" + organizationId + "'")
                                .getFirst());
                byte[] aad = KeySealer.aad(SealPurpose.PRIVATE_KEY, organizationId, privateKeyId);
                try (SecretBytes dataKey = kek.unwrap(wrapped.bytes(), DataKeys.dataKeyAad(organizationId));
                        SecretBytes plain =
                                dataKey.apply(SecretKeyAccess.get(), key -> decrypt(key, sealed.bytes(), aad))) {
                    legacy = SealedSecret.of(kek.wrap(plain, aad)).base64();
                }
                try (PreparedStatement update =
                        db.prepareStatement("UPDATE private_keys SET key_sealed = ? WHERE id = ?")) {
                    update.setString(1, legacy);
                    update.setString(2, privateKeyId);
                    update.executeUpdate();
                }
                try (var advance = db.createStatement()) {
                    advance.executeUpdate("UPDATE organizations SET state_version = state_version + 1");
                }
            }
            // Another server's start moves it under the organization's data key.
            try (TestServer peer = server.peer();
                    Connection db = DriverManager.getConnection(server.databaseUrl())) {
                String stored = column(db, "SELECT key_sealed FROM private_keys WHERE id = '" + privateKeyId + "'")
                        .getFirst();
                assertThat(stored).isNotEqualTo(legacy);
                assertThat(new SealedSecret(stored).bytes()[0]).isEqualTo(KeySealer.VERSION);
                var signed = peer.rootClient()
                        .signRawPayload(privateKeyId, DIGEST, "PAYLOAD_ENCODING_HEXADECIMAL", "HASH_FUNCTION_NO_OP");
                var signature = signed.result();
                assertThat(verifiesSecp256k1(
                                publicKey,
                                DIGEST,
                                signature.path("r").asString(),
                                signature.path("s").asString()))
                        .as("the moved key still signs as itself")
                        .isTrue();
            }
        }
    }

    private static final String DIGEST = "42".repeat(32);

    private static SecretBytes decrypt(byte[] key, byte[] sealed, byte[] aad) {
        try {
            Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
            cipher.init(
                    Cipher.DECRYPT_MODE,
                    new SecretKeySpec(key, "AES"),
                    new GCMParameterSpec(128, Arrays.copyOfRange(sealed, 1, 13)));
            cipher.updateAAD(aad);
            return SecretBytes.adopt(cipher.doFinal(sealed, 13, sealed.length - 13));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    /** An independent check with BouncyCastle's ECDSA verifier. */
    private static boolean verifiesSecp256k1(String publicKeyHex, String digestHex, String r, String s) {
        var curve = SECNamedCurves.getByName("secp256k1");
        var domain = new ECDomainParameters(curve.getCurve(), curve.getG(), curve.getN(), curve.getH());
        var point = curve.getCurve().decodePoint(HexFormat.of().parseHex(publicKeyHex));
        var verifier = new ECDSASigner();
        verifier.init(false, new ECPublicKeyParameters(point, domain));
        return verifier.verifySignature(
                HexFormat.of().parseHex(digestHex), new BigInteger(r, 16), new BigInteger(s, 16));
    }

    private static List<String> column(Connection db, String sql) throws Exception {
        List<String> out = new ArrayList<>();
        try (PreparedStatement statement = db.prepareStatement(sql);
                ResultSet rs = statement.executeQuery()) {
            while (rs.next()) {
                out.add(rs.getString(1));
            }
        }
        return out;
    }
}
