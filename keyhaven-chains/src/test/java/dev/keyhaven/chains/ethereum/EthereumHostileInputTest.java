package dev.keyhaven.chains.ethereum;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.keyhaven.chains.TransactionFormatException;
import dev.keyhaven.crypto.eth.EthereumTransaction;
import dev.keyhaven.policy.Value;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Hostile transactions, calldata and ABIs: truncated at every length, with bytes flipped, random, or with huge
 * lengths. Transactions and ABIs are read or refused with a {@link TransactionFormatException} and nothing else;
 * calldata is read or bound as unreadable, and never throws. Seeded, so a failure reproduces.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class EthereumHostileInputTest {
    private static final String FROM = "0x" + "ab".repeat(20);
    private static final HexFormat HEX = HexFormat.of();
    private static final Map<String, ContractAbi> ABIS = Map.of(
            "erc20.abi.json", EthereumVectors.abi("erc20.abi.json"),
            "weth.abi.json", EthereumVectors.abi("weth.abi.json"),
            "batch.abi.json", EthereumVectors.abi("batch.abi.json"),
            "nested.abi.json", EthereumVectors.abi("nested.abi.json"));

    @Test
    void transactionsTruncatedAtEveryLengthAreRefused() {
        for (EthereumVectors.Transaction vector : EthereumVectors.transactions()) {
            for (int length = 0; length < vector.unsigned().length; length++) {
                byte[] truncated = Arrays.copyOf(vector.unsigned(), length);
                assertThatThrownBy(() -> read(truncated))
                        .as(vector.name() + " cut to " + truncated.length)
                        .isInstanceOf(TransactionFormatException.class);
            }
        }
    }

    @Test
    void transactionsWithFlippedBytesAreReadOrRefused() {
        Random random = new Random(1);
        for (EthereumVectors.Transaction vector : EthereumVectors.transactions()) {
            for (int i = 0; i < 3000; i++) {
                byte[] flipped = vector.unsigned().clone();
                for (int flips = 1 + random.nextInt(3); flips > 0; flips--) {
                    flipped[random.nextInt(flipped.length)] ^= (byte) (1 + random.nextInt(255));
                }
                readOrRefuse(flipped);
            }
        }
    }

    @Test
    void randomBytesAreReadOrRefused() {
        Random random = new Random(2);
        byte[] firstBytes = {
            0x00,
            0x01,
            0x02,
            0x03,
            0x04,
            0x05,
            (byte) 0x7f,
            (byte) 0xc0,
            (byte) 0xd0,
            (byte) 0xf7,
            (byte) 0xf8,
            (byte) 0xf9,
            (byte) 0xfb,
            (byte) 0xff
        };
        for (int i = 0; i < 20_000; i++) {
            byte[] bytes = new byte[random.nextInt(200)];
            random.nextBytes(bytes);
            if (bytes.length > 0 && random.nextBoolean()) {
                bytes[0] = firstBytes[random.nextInt(firstBytes.length)];
            }
            readOrRefuse(bytes);
        }
    }

    @Test
    void hugeRlpLengthsAreRefusedWithoutAllocating() {
        for (String hex : List.of(
                "fbffffffff",
                "bbffffffff",
                "f97fffffff",
                "02fbffffffff",
                "02f8ff",
                "c9b97fffffff0000000000",
                "02f84a01bbffffffff",
                "f7" + "00".repeat(10),
                "ff" + "00".repeat(8))) {
            assertThatThrownBy(() -> read(HEX.parseHex(hex))).as(hex).isInstanceOf(TransactionFormatException.class);
        }
    }

    @Test
    void calldataTruncatedAtEveryLengthIsReadOrUnreadable() {
        for (EthereumVectors.Call vector : EthereumVectors.calls()) {
            ContractAbi abi = ABIS.get(vector.abiFile());
            for (int length = 4; length < vector.calldata().length; length++) {
                ContractCall call = abi.read(Arrays.copyOf(vector.calldata(), length));
                assertThat(call).as(vector + " cut to " + length).isInstanceOf(ContractCall.Unreadable.class);
            }
        }
    }

    @Test
    void calldataWithFlippedBytesIsReadOrUnreadable() {
        Random random = new Random(3);
        for (EthereumVectors.Call vector : EthereumVectors.calls()) {
            ContractAbi abi = ABIS.get(vector.abiFile());
            for (int i = 0; i < 3000 && vector.calldata().length > 4; i++) {
                byte[] flipped = vector.calldata().clone();
                for (int flips = 1 + random.nextInt(3); flips > 0; flips--) {
                    flipped[4 + random.nextInt(flipped.length - 4)] ^= (byte) (1 + random.nextInt(255));
                }
                assertFits(abi.read(flipped));
            }
        }
    }

    @Test
    void everyWordOfCalldataSetToAHugeLengthIsReadOrUnreadable() {
        List<String> words = List.of(
                "ff".repeat(32),
                "00".repeat(28) + "7fffffff",
                "00".repeat(28) + "80000000",
                "00".repeat(28) + "00100000",
                "00".repeat(28) + "ffffffe0",
                "00".repeat(31) + "01");
        for (EthereumVectors.Call vector : EthereumVectors.calls()) {
            ContractAbi abi = ABIS.get(vector.abiFile());
            for (int at = 4; at + 32 <= vector.calldata().length; at += 32) {
                for (String word : words) {
                    byte[] hostile = vector.calldata().clone();
                    System.arraycopy(HEX.parseHex(word), 0, hostile, at, 32);
                    assertFits(abi.read(hostile));
                }
            }
        }
    }

    @Test
    void randomCalldataAfterAKnownSelectorIsReadOrUnreadable() {
        Random random = new Random(4);
        List<EthereumVectors.Call> calls = EthereumVectors.calls();
        for (int i = 0; i < 20_000; i++) {
            EthereumVectors.Call vector = calls.get(random.nextInt(calls.size()));
            byte[] calldata = new byte[4 + 32 * random.nextInt(12) + (random.nextInt(4) == 0 ? random.nextInt(32) : 0)];
            random.nextBytes(calldata);
            System.arraycopy(vector.calldata(), 0, calldata, 0, 4);
            for (int at = 4; at + 32 <= calldata.length; at += 32) {
                if (random.nextBoolean()) {
                    // mostly small words, as offsets and lengths, so that decoding gets past the first check
                    Arrays.fill(calldata, at, at + 31, (byte) 0);
                    calldata[at + 31] = (byte) (random.nextInt(8) * 32);
                }
            }
            assertFits(ABIS.get(vector.abiFile()).read(calldata));
        }
    }

    @Test
    void abisTruncatedAtEveryLengthAreRefused() {
        for (String file : ABIS.keySet()) {
            String json = EthereumVectors.text(file).strip();
            for (int length = 0; length < json.length(); length++) {
                String truncated = json.substring(0, length);
                assertThatThrownBy(() -> ContractAbi.parse(truncated))
                        .as(file + " cut to " + length)
                        .isInstanceOf(TransactionFormatException.class);
            }
        }
    }

    @Test
    void abisWithCharactersReplacedAreParsedOrRefused() {
        Random random = new Random(5);
        String alphabet = "[]{}(),:\" 0123456789abcdefghijklmnopqrstuvwxyz_$\\";
        for (String file : ABIS.keySet()) {
            String json = EthereumVectors.text(file);
            for (int i = 0; i < 1500; i++) {
                char[] chars = json.toCharArray();
                for (int changes = 1 + random.nextInt(3); changes > 0; changes--) {
                    chars[random.nextInt(chars.length)] = alphabet.charAt(random.nextInt(alphabet.length()));
                }
                try {
                    ContractAbi.parse(new String(chars));
                } catch (TransactionFormatException refused) {
                    assertThat(refused.getMessage()).isNotBlank();
                }
            }
        }
    }

    private static void readOrRefuse(byte[] unsigned) {
        try {
            read(unsigned);
        } catch (TransactionFormatException refused) {
            assertThat(refused.getMessage()).isNotBlank();
        }
    }

    /** Parses and binds with each ABI, as the server would for whatever contract the transaction calls. */
    private static void read(byte[] unsigned) {
        EthereumTransaction tx = EthereumTransactionView.parseUnsigned(unsigned);
        for (ContractAbi abi : ABIS.values()) {
            Value value = EthereumTransactionView.policyValue(tx, FROM, Optional.of(abi));
            assertThat(EthereumTransactionView.POLICY_TYPE.mismatch(value)).isEmpty();
        }
    }

    private static void assertFits(ContractCall call) {
        if (call instanceof ContractCall.Decoded decoded) {
            assertThat(EthereumTransactionView.POLICY_TYPE.mismatch(
                            Value.struct(Map.of("contract_call_args", Value.struct(decoded.arguments())))))
                    .isEmpty();
        }
    }
}
