package dev.keyhaven.crypto.eth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.keyhaven.crypto.Digests;
import dev.keyhaven.crypto.KeyCurve;
import dev.keyhaven.crypto.SecretBytes;
import dev.keyhaven.crypto.sign.PayloadSigner;
import dev.keyhaven.crypto.sign.Signature;
import java.math.BigInteger;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;

/** Unsigned Ethereum transactions: the signing hash and the signed serialisation of each type. */
class EthereumTransactionTest {
    private static final HexFormat HEX = HexFormat.of();
    /** The EIP-155 example: private key 0x4646…46, nonce 9, 20 gwei, 21000 gas, to 0x3535…35, 1 ether, chain 1. */
    private static final String EIP155_UNSIGNED =
            "ec098504a817c800825208943535353535353535353535353535353535353535880" + "de0b6b3a764000080018080";

    private static final String EIP155_SIGNED = "f86c098504a817c800825208943535353535353535353535353535353535353535880"
            + "de0b6b3a76400008025a028ef61340bd939bc2195fe537567866003e1a15d3c71ff63e1590620aa636276a067cbe9d8997f761aecb7"
            + "03304b3800ccf555c9f3dc64214b297fb1966a3b6d83";

    // Serialised by ethers@6.17.0 (Transaction.from(spec).unsignedSerialized); the expected fields are what
    // Transaction.from reads back from these bytes.
    private static final String TYPE_1 = "01f85f01078459682f0082c350945aaeb6053f3e94c9b9a09f33669435e7ef1beaed84075bcd"
            + "1580f838f794c02aaa39b223fe8d0a0e5c4f27ead9083c756cc2e1a000000000000000000000000000000000000000000000"
            + "00000000000000000003";
    private static final String TYPE_2_CREATION = "02df8221058002038307a1208080916080604052348015600f57600080fd5b50c0";
    private static final String TYPE_3 = "03f85283aa36a70b843b9aca008504a817c800825208945aaeb6053f3e94c9b9a09f33669435"
            + "e7ef1beaed8080c084b2d05e00e1a001ababababababababababababababababababababababababababababababab";
    private static final String TYPE_4 = "04f8aa0106843b9aca008477359400830186a0949d8a62f656a8d1615c1294fd71e9cfb3e485"
            + "5a4f80a42e1a7d4d000000000000000000000000000000000000000000000000016345785d8a0000c0f85cf85a0194121212"
            + "12121212121212121212121212121212120701a09f92819822eed803dd85739522e5147deb25616db999c9613de1341b95f2"
            + "299da071d45549b9d878b083704a7e190adc83fe654a75e8b834bc30f4a3333583e015";

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
        byte[] unsigned =
                HEX.parseHex("e9098504a817c800825208943535353535353535353535353535353535353535880de0b6b3a764000080");
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
        byte[] body = Rlp.encodeList(
                Rlp.encodeInteger(java.math.BigInteger.ONE),
                Rlp.encodeInteger(java.math.BigInteger.ZERO),
                Rlp.encodeInteger(java.math.BigInteger.valueOf(1_000_000_000L)),
                Rlp.encodeInteger(java.math.BigInteger.valueOf(2_000_000_000L)),
                Rlp.encodeInteger(java.math.BigInteger.valueOf(21000)),
                Rlp.encodeBytes(HEX.parseHex("35".repeat(20))),
                Rlp.encodeInteger(java.math.BigInteger.ONE),
                Rlp.encodeBytes(new byte[0]),
                Rlp.encodeList());
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

    @Test
    void readsTheFieldsOfAnEip155Transaction() {
        EthereumTransaction tx = EthereumTransaction.parseUnsigned(HEX.parseHex(EIP155_UNSIGNED));
        assertThat(tx.chainId()).contains(BigInteger.ONE);
        assertThat(tx.nonce()).isEqualTo(9);
        assertThat(tx.gasPrice()).contains(BigInteger.valueOf(20_000_000_000L));
        assertThat(tx.maxFeePerGas()).isEmpty();
        assertThat(tx.maxPriorityFeePerGas()).isEmpty();
        assertThat(tx.maxFeePerBlobGas()).isEmpty();
        assertThat(tx.gasLimit()).isEqualTo(21000);
        assertThat(tx.to()).hasValueSatisfying(to -> assertThat(to).isEqualTo(HEX.parseHex("35".repeat(20))));
        assertThat(tx.value()).isEqualTo(new BigInteger("1000000000000000000"));
        assertThat(tx.data()).isEmpty();
    }

    @Test
    void aLegacyTransactionWithoutEip155HasNoChainId() {
        EthereumTransaction tx = EthereumTransaction.parseUnsigned(
                HEX.parseHex("e9098504a817c800825208943535353535353535353535353535353535353535880de0b6b3a764000080"));
        assertThat(tx.chainId()).isEmpty();
        assertThat(tx.nonce()).isEqualTo(9);
    }

    @Test
    void readsTheFieldsOfAType1Transaction() {
        EthereumTransaction tx = EthereumTransaction.parseUnsigned(HEX.parseHex(TYPE_1));
        assertThat(tx.type()).isEqualTo(1);
        assertThat(tx.chainId()).contains(BigInteger.ONE);
        assertThat(tx.nonce()).isEqualTo(7);
        assertThat(tx.gasPrice()).contains(BigInteger.valueOf(1_500_000_000L));
        assertThat(tx.maxFeePerGas()).isEmpty();
        assertThat(tx.gasLimit()).isEqualTo(50000);
        assertThat(HEX.formatHex(tx.to().orElseThrow())).isEqualTo("5aaeb6053f3e94c9b9a09f33669435e7ef1beaed");
        assertThat(tx.value()).isEqualTo(123456789);
        assertThat(tx.data()).isEmpty();
    }

    @Test
    void aContractCreationHasNoRecipientAndItsInitCodeAsData() {
        EthereumTransaction tx = EthereumTransaction.parseUnsigned(HEX.parseHex(TYPE_2_CREATION));
        assertThat(tx.type()).isEqualTo(2);
        assertThat(tx.chainId()).contains(BigInteger.valueOf(8453));
        assertThat(tx.nonce()).isZero();
        assertThat(tx.gasPrice()).isEmpty();
        assertThat(tx.maxPriorityFeePerGas()).contains(BigInteger.TWO);
        assertThat(tx.maxFeePerGas()).contains(BigInteger.valueOf(3));
        assertThat(tx.gasLimit()).isEqualTo(500000);
        assertThat(tx.to()).isEmpty();
        assertThat(tx.value()).isZero();
        assertThat(HEX.formatHex(tx.data())).isEqualTo("6080604052348015600f57600080fd5b50");
    }

    @Test
    void readsTheBlobFeeOfAType3Transaction() {
        EthereumTransaction tx = EthereumTransaction.parseUnsigned(HEX.parseHex(TYPE_3));
        assertThat(tx.chainId()).contains(BigInteger.valueOf(11155111));
        assertThat(tx.nonce()).isEqualTo(11);
        assertThat(tx.maxPriorityFeePerGas()).contains(BigInteger.valueOf(1_000_000_000L));
        assertThat(tx.maxFeePerGas()).contains(BigInteger.valueOf(20_000_000_000L));
        assertThat(tx.maxFeePerBlobGas()).contains(BigInteger.valueOf(3_000_000_000L));
        assertThat(tx.gasLimit()).isEqualTo(21000);
        assertThat(tx.data()).isEmpty();
    }

    @Test
    void readsTheCallOfAType4Transaction() {
        EthereumTransaction tx = EthereumTransaction.parseUnsigned(HEX.parseHex(TYPE_4));
        assertThat(tx.type()).isEqualTo(4);
        assertThat(tx.nonce()).isEqualTo(6);
        assertThat(tx.maxFeePerGas()).contains(BigInteger.valueOf(2_000_000_000L));
        assertThat(tx.maxFeePerBlobGas()).isEmpty();
        assertThat(tx.gasLimit()).isEqualTo(100000);
        assertThat(HEX.formatHex(tx.to().orElseThrow())).isEqualTo("9d8a62f656a8d1615c1294fd71e9cfb3e4855a4f");
        assertThat(HEX.formatHex(tx.data()))
                .isEqualTo("2e1a7d4d000000000000000000000000000000000000000000000000016345" + "785d8a0000");
    }

    @Test
    void fieldsOfTheWrongShapeAreRefusedNamingTheField() {
        // type 2 fields: chainId, nonce, tip, max fee, gas, to, value, data, access list
        assertThatThrownBy(
                        () -> parseType2(Rlp.encodeBytes(HEX.parseHex("35".repeat(19))), Rlp.encodeBytes(new byte[0])))
                .hasMessageContaining("to must be 20 bytes or empty, not 19");
        assertThatThrownBy(() -> parseType2(Rlp.encodeBytes(HEX.parseHex("35".repeat(20))), Rlp.encodeList()))
                .hasMessageContaining("data must be a byte string");
        assertThatThrownBy(() -> parseType2(Rlp.encodeList(), Rlp.encodeBytes(new byte[0])))
                .hasMessageContaining("to must be a byte string");
        assertThatThrownBy(() -> EthereumTransaction.parseUnsigned(HEX.parseHex(
                        "ea098504a817c80082520894353535353535353535353535353535353535353589000de0b6b3a764000080")))
                .hasMessageContaining("value has leading zero bytes");
        String type3WithoutRecipient = TYPE_3.replace("945aaeb6053f3e94c9b9a09f33669435e7ef1beaed", "80")
                .replace("03f852", "03f83e");
        assertThatThrownBy(() -> EthereumTransaction.parseUnsigned(HEX.parseHex(type3WithoutRecipient)))
                .hasMessageContaining("type 0x03 transaction must have a recipient");
    }

    private static EthereumTransaction parseType2(byte[] to, byte[] data) {
        byte[] body = Rlp.encodeList(
                Rlp.encodeInteger(BigInteger.ONE),
                Rlp.encodeInteger(BigInteger.ZERO),
                Rlp.encodeInteger(BigInteger.ONE),
                Rlp.encodeInteger(BigInteger.TWO),
                Rlp.encodeInteger(BigInteger.valueOf(21000)),
                to,
                Rlp.encodeInteger(BigInteger.ONE),
                data,
                Rlp.encodeList());
        byte[] unsigned = new byte[body.length + 1];
        unsigned[0] = 2;
        System.arraycopy(body, 0, unsigned, 1, body.length);
        return EthereumTransaction.parseUnsigned(unsigned);
    }
}
