package dev.keyhaven.server.signing;

import static dev.keyhaven.server.testing.ApiErrors.apiError;
import static org.assertj.core.api.Assertions.assertThat;

import dev.keyhaven.chains.bitcoin.PartiallySignedTransaction;
import dev.keyhaven.client.Activity;
import dev.keyhaven.client.KeyhavenApiException;
import dev.keyhaven.client.Requests.PrivateKeyParams;
import dev.keyhaven.client.Requests.WalletAccountParams;
import dev.keyhaven.crypto.Digests;
import dev.keyhaven.crypto.EcCurve;
import dev.keyhaven.crypto.address.SegwitAddress;
import dev.keyhaven.crypto.address.Taproot;
import dev.keyhaven.crypto.sign.Bip340Schnorr;
import dev.keyhaven.server.api.ErrorCode;
import dev.keyhaven.server.testing.NonRootUser;
import dev.keyhaven.server.testing.OnBothStores;
import dev.keyhaven.server.testing.Policies;
import dev.keyhaven.server.testing.Psbts;
import dev.keyhaven.server.testing.Psbts.Output;
import dev.keyhaven.server.testing.Psbts.Spent;
import fr.acinq.bitcoin.ByteVector;
import fr.acinq.bitcoin.PublicKey;
import fr.acinq.bitcoin.psbt.Input;
import fr.acinq.bitcoin.psbt.Psbt;
import java.io.ByteArrayOutputStream;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import org.bouncycastle.asn1.ASN1Integer;
import org.bouncycastle.asn1.ASN1Sequence;
import org.bouncycastle.crypto.params.ECPublicKeyParameters;
import org.bouncycastle.crypto.signers.ECDSASigner;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.BeforeParameterizedClassInvocation;
import tools.jackson.databind.JsonNode;

/**
 * {@code sign_transaction} for {@code TRANSACTION_TYPE_BITCOIN} on both stores: a P2WPKH input signed with ECDSA and a
 * Taproot key-path input with BIP-340 (each checked against its sighash and the account's key), other inputs left
 * alone, inputs Keyhaven cannot sign refused by index, and policies reading {@code bitcoin.tx}: output addresses on
 * signWith's network, a fee proven by the previous transactions, and what is unreadable failing closed.
 */
class BitcoinTransactionsIT extends OnBothStores {
    private static final HexFormat HEX = HexFormat.of();
    private static final String TYPE = "TRANSACTION_TYPE_BITCOIN";
    private static final SecureRandom RANDOM = new SecureRandom();

    private String segwitAddress;
    private byte[] segwitKey;
    private String taprootAddress;
    private byte[] taprootKey;
    private String wrappedAddress;
    private byte[] wrappedKey;
    private String privateKeyId;
    private byte[] privateKeyKey;
    private String privateKeyAddress;
    private NonRootUser alice;

    @BeforeParameterizedClassInvocation
    void createAccounts() {
        String walletId = root.createWallet(
                        "bitcoin",
                        List.of(
                                WalletAccountParams.of(
                                        "CURVE_SECP256K1", "m/84'/1'/0'/0/0", "ADDRESS_FORMAT_BITCOIN_TESTNET_P2WPKH"),
                                WalletAccountParams.of(
                                        "CURVE_SECP256K1", "m/86'/1'/0'/0/0", "ADDRESS_FORMAT_BITCOIN_TESTNET_P2TR"),
                                WalletAccountParams.of(
                                        "CURVE_SECP256K1", "m/49'/1'/0'/0/0", "ADDRESS_FORMAT_BITCOIN_TESTNET_P2SH")))
                .result()
                .path("walletId")
                .asString();
        JsonNode accounts =
                root.query("list_wallet_accounts", Map.of("walletId", walletId)).path("accounts");
        segwitAddress = accounts.get(0).path("address").asString();
        segwitKey = HEX.parseHex(accounts.get(0).path("publicKey").asString());
        taprootAddress = accounts.get(1).path("address").asString();
        taprootKey = HEX.parseHex(accounts.get(1).path("publicKey").asString());
        wrappedAddress = accounts.get(2).path("address").asString();
        wrappedKey = HEX.parseHex(accounts.get(2).path("publicKey").asString());
        JsonNode key = root.createPrivateKeys(List.of(new PrivateKeyParams(
                        "btc key", "CURVE_SECP256K1", List.of(), List.of("ADDRESS_FORMAT_BITCOIN_TESTNET_P2WPKH"))))
                .result()
                .path("privateKeys")
                .get(0);
        privateKeyId = key.path("privateKeyId").asString();
        privateKeyAddress = key.path("addresses").get(0).path("address").asString();
        // A private key reports its public key uncompressed, as Turnkey does; its scripts use the compressed form.
        privateKeyKey = EcCurve.SECP256K1
                .decodePoint(HEX.parseHex(
                        root.getPrivateKey(privateKeyId).path("publicKey").asString()))
                .getEncoded(true);
        alice = NonRootUser.create(root, "alice");
    }

    @AfterEach
    void deletePolicies() {
        Policies.deleteAll(root);
    }

    private static byte[] p2wpkh(byte[] publicKey) {
        return concat(HEX.parseHex("0014"), Digests.hash160(publicKey));
    }

    private static byte[] p2tr(byte[] publicKey) {
        return concat(HEX.parseHex("5120"), Taproot.outputKey(Arrays.copyOfRange(publicKey, 1, 33)));
    }

    private static byte[] p2shP2wpkh(byte[] publicKey) {
        return concat(HEX.parseHex("a914"), Digests.hash160(p2wpkh(publicKey)), HEX.parseHex("87"));
    }

    private static byte[] someoneElses() {
        byte[] hash = new byte[20];
        RANDOM.nextBytes(hash);
        return concat(HEX.parseHex("0014"), hash);
    }

    private static String testnetAddress(byte[] p2wpkhScript) {
        return SegwitAddress.encode("tb", 0, Arrays.copyOfRange(p2wpkhScript, 2, 22));
    }

    private static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] part : parts) {
            out.writeBytes(part);
        }
        return out.toByteArray();
    }

    private static Psbt read(String hex) {
        return Psbt.Companion.read(HEX.parseHex(hex)).getRight();
    }

    private static String signed(Activity activity) {
        assertThat(activity.status()).isEqualTo("ACTIVITY_STATUS_COMPLETED");
        return activity.result().path("signedTransaction").asString();
    }

    @Test
    void aSegwitInputOfTheKeyIsSignedWithEcdsaAndOthersAreLeftAlone() throws Exception {
        byte[] unsigned = Psbts.psbt(
                List.of(
                        new Spent(new Output(100_000, p2wpkh(segwitKey)), true),
                        new Spent(new Output(50_000, someoneElses()), true)),
                List.of(new Output(140_000, someoneElses())));
        Psbt psbt = read(signed(root.signTransaction(segwitAddress, TYPE, HEX.formatHex(unsigned))));
        Input mine = psbt.inputs.get(0);
        assertThat(mine.getPartialSigs()).hasSize(1);
        ByteVector signature = mine.getPartialSigs().get(new PublicKey(segwitKey));
        byte[] der = signature.toByteArray();
        assertThat(der[der.length - 1]).as("SIGHASH_ALL").isEqualTo((byte) 0x01);
        ASN1Sequence rs = ASN1Sequence.getInstance(Arrays.copyOf(der, der.length - 1));
        byte[] sighash = PartiallySignedTransaction.parse(unsigned)
                .inputsSpendableBy(segwitKey)
                .getFirst()
                .sighash();
        ECDSASigner verifier = new ECDSASigner();
        verifier.init(
                false, new ECPublicKeyParameters(EcCurve.SECP256K1.decodePoint(segwitKey), EcCurve.SECP256K1.domain()));
        assertThat(verifier.verifySignature(
                        sighash,
                        ((ASN1Integer) rs.getObjectAt(0)).getValue(),
                        ((ASN1Integer) rs.getObjectAt(1)).getValue()))
                .isTrue();
        assertThat(psbt.inputs.get(1).getPartialSigs()).isEmpty();
        assertThat(psbt.inputs.get(0))
                .as("not finalised")
                .isInstanceOf(Input.WitnessInput.PartiallySignedWitnessInput.class);
    }

    @Test
    void aTaprootInputOfTheKeyIsSignedWithBip340ByTheTweakedKey() {
        byte[] unsigned = Psbts.psbt(
                List.of(new Spent(new Output(100_000, p2tr(taprootKey)), false)),
                List.of(new Output(99_000, someoneElses())));
        Psbt psbt = read(signed(root.signTransaction(taprootAddress, TYPE, HEX.formatHex(unsigned))));
        byte[] signature = psbt.inputs.get(0).getTaprootKeySignature().toByteArray();
        assertThat(signature).hasSize(64);
        byte[] sighash = PartiallySignedTransaction.parse(unsigned)
                .inputsSpendableBy(taprootKey)
                .getFirst()
                .sighash();
        assertThat(Bip340Schnorr.verify(Taproot.outputKey(Arrays.copyOfRange(taprootKey, 1, 33)), sighash, signature))
                .isTrue();
    }

    @Test
    void inputsKeyhavenCannotSignAreRefusedByIndex() {
        KeyhavenApiException wrapped = apiError(
                ErrorCode.BAD_REQUEST,
                null,
                () -> root.signTransaction(
                        wrappedAddress,
                        TYPE,
                        HEX.formatHex(Psbts.psbt(
                                List.of(
                                        new Spent(new Output(9_000, someoneElses()), true),
                                        new Spent(new Output(10_000, p2shP2wpkh(wrappedKey)), true)),
                                List.of(new Output(18_000, someoneElses()))))));
        assertThat(wrapped.serverMessage()).startsWith("cannot sign this PSBT with signWith: input 1: ");
        KeyhavenApiException noUtxo = apiError(
                ErrorCode.BAD_REQUEST,
                "parameters.unsignedTransaction",
                () -> root.signTransaction(
                        segwitAddress,
                        TYPE,
                        HEX.formatHex(Psbts.psbt(
                                List.of(new Spent(new Output(10_000, p2wpkh(segwitKey)), false, false)),
                                List.of(new Output(9_000, someoneElses()))))));
        assertThat(noUtxo.serverMessage())
                .startsWith(
                        "bad request body: parameters.unsignedTransaction is not an "
                                + "unsigned Bitcoin (PSBT) transaction: input 0: has neither non_witness_utxo nor witness_utxo");
        KeyhavenApiException notMine = apiError(
                ErrorCode.BAD_REQUEST,
                null,
                () -> root.signTransaction(
                        segwitAddress,
                        TYPE,
                        HEX.formatHex(Psbts.psbt(
                                List.of(new Spent(new Output(10_000, someoneElses()), true)),
                                List.of(new Output(9_000, someoneElses()))))));
        assertThat(notMine.serverMessage())
                .isEqualTo("cannot sign this PSBT with signWith: no input spends an "
                        + "output of the key (its P2PKH, P2WPKH or BIP-86 P2TR output, or a P2SH or P2WSH script that "
                        + "pushes it)");
        assertThat(apiError(
                                ErrorCode.BAD_REQUEST,
                                "parameters.unsignedTransaction",
                                () -> root.signTransaction(segwitAddress, TYPE, "70736274ff00"))
                        .serverMessage())
                .startsWith("bad request body: parameters.unsignedTransaction is not an unsigned Bitcoin (PSBT) "
                        + "transaction: ");
    }

    private Activity pay(byte[] to, long value, long fee, boolean proven) {
        return alice.client()
                .signTransaction(
                        segwitAddress,
                        TYPE,
                        HEX.formatHex(Psbts.psbt(
                                List.of(new Spent(new Output(value + fee, p2wpkh(segwitKey)), proven)),
                                List.of(new Output(value, to)))));
    }

    @Test
    void policiesReadOutputAddressesOnTheKeysNetworkAndAProvenFee() {
        byte[] recipient = someoneElses();
        Policies.allow(
                root,
                "bitcoin.tx.outputs.all(o, o.address in ['" + testnetAddress(recipient)
                        + "']) && bitcoin.tx.fee <= 10000");
        assertThat(pay(recipient, 50_000, 5_000, true).isCompleted()).isTrue();
        assertThat(pay(someoneElses(), 50_000, 5_000, true).status()).isEqualTo("ACTIVITY_STATUS_FAILED");
        assertThat(pay(recipient, 50_000, 50_000, true).status()).isEqualTo("ACTIVITY_STATUS_FAILED");
        // Without the previous transaction nothing proves the amount spent, so the fee cannot be read.
        assertThat(pay(recipient, 50_000, 5_000, false).status()).isEqualTo("ACTIVITY_STATUS_FAILED");
    }

    @Test
    void aDenyOnWhatCannotBeReadFailsClosed() {
        Policies.allow(root, "activity.kind == 'SIGN_TRANSACTION'");
        String deny = Policies.deny(root, "bitcoin.tx.fee > 20000");
        assertThat(pay(someoneElses(), 50_000, 5_000, true).isCompleted()).isTrue();
        Activity unproven = pay(someoneElses(), 50_000, 5_000, false);
        assertThat(unproven.status()).isEqualTo("ACTIVITY_STATUS_FAILED");
        JsonNode outcome = root.getPolicyEvaluations(unproven.id())
                .get(0)
                .path("policyEvaluations")
                .get(1);
        assertThat(outcome.path("policyId").asString()).isEqualTo(deny);
        assertThat(outcome.path("failsClosed").asBoolean()).isTrue();
        assertThat(outcome.path("error").asString()).contains("BIP-174's fee attack");
    }

    @Test
    void aPrivateKeyNamedByIdHasNoNetworkSoItsOutputAddressesAreUnreadable() {
        Policies.allow(root, "activity.kind == 'SIGN_TRANSACTION'");
        Policies.deny(root, "bitcoin.tx.outputs.any(o, o.address == 'tb1qdenied')");
        String psbt = HEX.formatHex(Psbts.psbt(
                List.of(new Spent(new Output(20_000, p2wpkh(privateKeyKey)), true)),
                List.of(new Output(19_000, someoneElses()))));
        Activity byId = alice.client().signTransaction(privateKeyId, TYPE, psbt);
        assertThat(byId.status()).isEqualTo("ACTIVITY_STATUS_FAILED");
        assertThat(alice.client().signTransaction(privateKeyAddress, TYPE, psbt).isCompleted())
                .isTrue();
    }
}
