package dev.keyhaven.crypto.eth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.keyhaven.crypto.Digests;
import dev.keyhaven.crypto.KeyCurve;
import dev.keyhaven.crypto.SecretBytes;
import dev.keyhaven.crypto.sign.PayloadSigner;
import dev.keyhaven.crypto.sign.Signature;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;

/** Unsigned Ethereum transactions: the signing hash and the signed serialisation of each type. */
class EthereumTransactionTest {
    private static final HexFormat HEX = HexFormat.of();
    /** The EIP-155 example: private key 0x4646…46, nonce 9, 20 gwei, 21000 gas, to 0x3535…35, 1 ether, chain 1. */
    private static final String EIP155_UNSIGNED = "ec098504a817c800825208943535353535353535353535353535353535353535880"
            + "de0b6b3a764000080018080";
    private static final String EIP155_SIGNED = "f86c098504a817c800825208943535353535353535353535353535353535353535880"
            + "de0b6b3a76400008025a028ef61340bd939bc2195fe537567866003e1a15d3c71ff63e1590620aa636276a067cbe9d8997f761aecb7"
            + "03304b3800ccf555c9f3dc64214b297fb1966a3b6d83";

    private static Signature sign(byte[] hash) {
        try (SecretBytes key = SecretBytes.copyOf(HEX.parseHex("46".repeat(32)))) {
            return PayloadSigner.signDigest(KeyCurve.SECP256K1, key, hash);
        }
    }

    @Test
    void theEip155ExampleSignsToThePublishedTransaction() {
        EthereumTransaction tx = EthereumTransaction.parseUnsigned(HEX.parseHex(EIP155_UNSIGNED));
        assertThat(tx.type()).isZero();
        assertThat(HEX.formatHex(tx.signingHash()))
                .isEqualTo("daf5a779ae972f972197303d7b574746c7ef83eadac0f2791ad23db92e4c8e53");
        assertThat(HEX.formatHex(tx.withSignature(sign(tx.signingHash())))).isEqualTo(EIP155_SIGNED);
    }

    @Test
    void aPreEip155TransactionGetsVOf27Or28() {
        byte[] unsigned = HEX.parseHex("e9098504a817c800825208943535353535353535353535353535353535353535880de0b6b3a764000080");
        EthereumTransaction tx = EthereumTransaction.parseUnsigned(unsigned);
        Signature signature = sign(tx.signingHash());
        byte[] signed = tx.withSignature(signature);
        java.util.List<byte[]> fields = RlpDecoder.listItems(signed);
        assertThat(fields).hasSize(9);
        assertThat(RlpDecoder.integer(fields.get(6), "v").intValue()).isEqualTo(27 + signature.v());
    }

    @Test
    void anEip1559TransactionAppendsYParityRAndS() {
        // type 2: [chainId 1, nonce 0, tip 1 gwei, max 2 gwei, gas 21000, to, value 1, data, accessList []]
        byte[] body = Rlp.encodeList(Rlp.encodeInteger(java.math.BigInteger.ONE), Rlp.encodeInteger(
                java.math.BigInteger.ZERO), Rlp.encodeInteger(java.math.BigInteger.valueOf(1_000_000_000L)),
                Rlp.encodeInteger(java.math.BigInteger.valueOf(2_000_000_000L)), Rlp.encodeInteger(
                        java.math.BigInteger.valueOf(21000)), Rlp.encodeBytes(HEX.parseHex("35".repeat(20))),
                Rlp.encodeInteger(java.math.BigInteger.ONE), Rlp.encodeBytes(new byte[0]), Rlp.encodeList());
        byte[] unsigned = new byte[body.length + 1];
        unsigned[0] = 2;
        System.arraycopy(body, 0, unsigned, 1, body.length);
        EthereumTransaction tx = EthereumTransaction.parseUnsigned(unsigned);
        assertThat(tx.signingHash()).isEqualTo(Digests.keccak256(unsigned));
        Signature signature = sign(tx.signingHash());
        byte[] signed = tx.withSignature(signature);
        assertThat(signed[0]).isEqualTo((byte) 2);
        java.util.List<byte[]> fields = RlpDecoder.listItems(java.util.Arrays.copyOfRange(signed, 1, signed.length));
        assertThat(fields).hasSize(12);
        assertThat(RlpDecoder.integer(fields.get(9), "yParity").intValue()).isEqualTo(signature.v());
        assertThat(RlpDecoder.integer(fields.get(10), "r")).isEqualTo(new java.math.BigInteger(1, signature.r()));
        assertThat(PayloadSigner.recoverPublicKey(KeyCurve.SECP256K1, tx.signingHash(), signature))
                .isEqualTo(KeyCurve.SECP256K1.publicKey(SecretBytes.copyOf(HEX.parseHex("46".repeat(32)))));
    }

    @Test
    void malformedTransactionsAreRefusedNamingTheProblem() {
        assertThatThrownBy(() -> EthereumTransaction.parseUnsigned(new byte[0])).hasMessageContaining("empty");
        assertThatThrownBy(() -> EthereumTransaction.parseUnsigned(HEX.parseHex("05c0")))
                .hasMessageContaining("unknown transaction type 0x5");
        assertThatThrownBy(() -> EthereumTransaction.parseUnsigned(HEX.parseHex("02c0")))
                .hasMessageContaining("has 9 fields, not 0");
        assertThatThrownBy(() -> EthereumTransaction.parseUnsigned(HEX.parseHex("c3010203")))
                .hasMessageContaining("6 fields");
        assertThatThrownBy(() -> EthereumTransaction.parseUnsigned(HEX.parseHex(EIP155_UNSIGNED + "00")))
                .hasMessageContaining("trailing bytes");
        assertThatThrownBy(() -> EthereumTransaction.parseUnsigned(HEX.parseHex("c58100010203")))
                .hasMessageContaining("single byte");
        assertThatThrownBy(() -> EthereumTransaction.parseUnsigned(HEX.parseHex("c6820001")))
                .hasMessageContaining("runs past its end");
        assertThatThrownBy(() -> EthereumTransaction.parseUnsigned(HEX.parseHex(EIP155_SIGNED)))
                .hasMessageContaining("chainId, 0, 0");
    }
}
