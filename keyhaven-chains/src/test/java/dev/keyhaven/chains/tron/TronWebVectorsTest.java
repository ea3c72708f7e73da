package dev.keyhaven.chains.tron;

import static dev.keyhaven.chains.tron.TronVectors.HEX;
import static org.assertj.core.api.Assertions.assertThat;

import dev.keyhaven.chains.tron.TronVectors.Vector;
import dev.keyhaven.crypto.KeyCurve;
import dev.keyhaven.crypto.SecretBytes;
import dev.keyhaven.crypto.sign.PayloadSigner;
import dev.keyhaven.crypto.sign.Signature;
import dev.keyhaven.policy.ListValue;
import dev.keyhaven.policy.StructValue;
import dev.keyhaven.policy.Value;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import tools.jackson.databind.JsonNode;

/** Every transaction TronWeb built: the same id, the same signature, and a signed form TronWeb decodes and verifies. */
class TronWebVectorsTest {

    static List<Vector> vectors() {
        return TronVectors.all();
    }

    @ParameterizedTest
    @MethodSource("vectors")
    void signingDigestIsTronWebsTransactionId(Vector vector) {
        TronTransaction transaction = TronTransaction.parse(vector.raw());

        assertThat(HEX.formatHex(transaction.signingDigest())).isEqualTo(vector.field("txID"));
    }

    @ParameterizedTest
    @MethodSource("vectors")
    void bouncyCastleSignsWhatTronWebSigns(Vector vector) {
        Signature signature = sign(TronTransaction.parse(vector.raw()));

        String tronWeb = vector.field("signature_v27").toLowerCase(Locale.ROOT);
        assertThat(signature.rHex() + signature.sHex()).isEqualTo(tronWeb.substring(0, 128));
        assertThat(signature.v() + 27).isEqualTo(Integer.parseInt(tronWeb.substring(128), 16));
    }

    @ParameterizedTest
    @MethodSource("vectors")
    void signedTransactionIsTheHexTronWebDecodedAndVerified(Vector vector) {
        TronTransaction transaction = TronTransaction.parse(vector.raw());
        Signature signature = sign(transaction);

        byte[] signed = transaction.signed(signature.r(), signature.s(), signature.v());

        assertThat(HEX.formatHex(signed)).isEqualTo(vector.field("signed_hex_v0"));
        JsonNode decoded = vector.json().path("tronweb_decodes_v0");
        assertThat(decoded.path("raw_data_hex").asString()).isEqualTo(vector.field("raw_data_hex"));
        assertThat(decoded.path("signature").asString())
                .isEqualTo(signature.rHex() + signature.sHex() + signature.vHex());
        assertThat(decoded.path("recovered_address").asString()).isEqualTo(TronVectors.OWNER);
        assertThat(decoded.path("verified").asBoolean()).isTrue();
    }

    /** Why v = 0/1 is safe to choose: TronWeb recovers the same signer from TronWeb's own 27/28 form. */
    @ParameterizedTest
    @MethodSource("vectors")
    void tronWebRecoversTheSignerFromEitherFormOfV(Vector vector) {
        JsonNode v27 = vector.json().path("tronweb_decodes_v27");
        JsonNode v0 = vector.json().path("tronweb_decodes_v0");

        assertThat(v27.path("recovered_address").asString()).isEqualTo(TronVectors.OWNER);
        assertThat(v0.path("recovered_address").asString()).isEqualTo(TronVectors.OWNER);
    }

    @ParameterizedTest
    @MethodSource("vectors")
    void policyValueHasItsDeclaredShape(Vector vector) {
        Value value = TronTransaction.parse(vector.raw()).policyValue();

        assertThat(TronTransaction.POLICY_TYPE.mismatch(value)).isEmpty();
    }

    @ParameterizedTest
    @MethodSource("vectors")
    void readsTheEnvelopeTronWebDecodes(Vector vector) {
        Map<String, Value> tx = fields(TronTransaction.parse(vector.raw()).policyValue());
        JsonNode raw = vector.json().path("tronweb_decodes_v0").path("raw_data");

        assertThat(tx.get("ref_block_bytes"))
                .isEqualTo(Value.of(raw.path("ref_block_bytes").asString().toLowerCase(Locale.ROOT)));
        assertThat(tx.get("ref_block_hash"))
                .isEqualTo(Value.of(raw.path("ref_block_hash").asString().toLowerCase(Locale.ROOT)));
        assertThat(tx.get("expiration"))
                .isEqualTo(Value.of(raw.path("expiration").asLong()));
        assertThat(tx.get("timestamp")).isEqualTo(Value.of(raw.path("timestamp").asLong()));
        assertThat(tx.get("fee_limit")).isEqualTo(Value.of(raw.path("fee_limit").asLong()));
        assertThat(tx.get("data"))
                .isEqualTo(Value.of(
                        vector.json().path("tronweb_reads").path("memo_utf8").asString()));
        Map<String, Value> contract =
                fields(((ListValue) tx.get("contract")).elements().getFirst());
        JsonNode tronWebContract = raw.path("contract").path(0);
        assertThat(contract.get("type"))
                .isEqualTo(Value.of(tronWebContract.path("type").asString()));
        assertThat(contract.get("permission_id"))
                .isEqualTo(Value.of(tronWebContract.path("Permission_id").asLong()));
        String ownerHex = tronWebContract
                .path("parameter")
                .path("value")
                .path("owner_address")
                .asString();
        String ownerBase58 = vector.json()
                .path("tronweb_reads")
                .path("addresses")
                .path(ownerHex.toLowerCase(Locale.ROOT))
                .asString();
        assertThat(contract.get("owner_address")).isEqualTo(Value.of(ownerBase58));
    }

    private static Signature sign(TronTransaction transaction) {
        return PayloadSigner.signDigest(
                KeyCurve.SECP256K1, SecretBytes.copyOf(TronVectors.PRIVATE_KEY), transaction.signingDigest());
    }

    private static Map<String, Value> fields(Value value) {
        return ((StructValue) value).fields();
    }
}
