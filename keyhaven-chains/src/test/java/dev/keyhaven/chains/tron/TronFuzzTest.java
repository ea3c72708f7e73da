package dev.keyhaven.chains.tron;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.protobuf.ByteString;
import com.google.protobuf.InvalidProtocolBufferException;
import dev.keyhaven.chains.TransactionFormatException;
import dev.keyhaven.chains.tron.TronVectors.Vector;
import dev.keyhaven.chains.tron.proto.RawTransaction;
import java.io.ByteArrayOutputStream;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Hostile bytes: whatever comes in, parse either returns a transaction whose policy value has its declared shape, or
 * throws {@link TransactionFormatException}; nothing else, and quickly. Seeds are fixed so failures reproduce.
 */
@Timeout(60)
class TronFuzzTest {
    private static final HexFormat HEX = HexFormat.of();

    static List<Vector> vectors() {
        return TronVectors.all();
    }

    @ParameterizedTest
    @MethodSource("vectors")
    void everyTruncationIsReadOrRefused(Vector vector) {
        byte[] raw = vector.raw();
        int refused = 0;
        for (int length = 0; length < raw.length; length++) {
            refused += readOrRefuse(Arrays.copyOf(raw, length));
        }
        // A cut between two top-level fields can leave a shorter valid transaction; most cuts cannot.
        assertThat(refused).isGreaterThan(raw.length / 2);
    }

    @ParameterizedTest
    @MethodSource("vectors")
    void randomByteChangesAreReadOrRefused(Vector vector) {
        Random random = new Random(vector.name().hashCode());
        byte[] raw = vector.raw();
        for (int i = 0; i < 2_000; i++) {
            byte[] changed = raw.clone();
            for (int flips = 1 + random.nextInt(3); flips > 0; flips--) {
                changed[random.nextInt(changed.length)] = (byte) random.nextInt(256);
            }
            readOrRefuse(changed);
        }
    }

    /** Changes inside the contract's parameter, wrapped in a valid envelope, so they reach the contract readers. */
    @ParameterizedTest
    @MethodSource("vectors")
    void randomChangesToTheParameterAreReadOrRefused(Vector vector) throws InvalidProtocolBufferException {
        Random random = new Random(vector.name().hashCode() + 1L);
        RawTransaction raw = RawTransaction.parseFrom(vector.raw());
        byte[] parameter = raw.getContract(0).getParameter().getValue().toByteArray();
        for (int i = 0; i < 2_000; i++) {
            byte[] changed = random.nextInt(4) == 0
                    ? Arrays.copyOf(parameter, random.nextInt(parameter.length))
                    : parameter.clone();
            for (int flips = random.nextInt(3); flips > 0 && changed.length > 0; flips--) {
                changed[random.nextInt(changed.length)] = (byte) random.nextInt(256);
            }
            readOrRefuse(withParameter(raw, changed));
        }
    }

    @Test
    void randomBytesAreReadOrRefused() {
        Random random = new Random(20261126);
        for (int i = 0; i < 20_000; i++) {
            byte[] bytes = new byte[random.nextInt(300)];
            random.nextBytes(bytes);
            readOrRefuse(bytes);
        }
    }

    @Test
    void hugeLengthClaimsAreRefused() {
        List<String> claims = List.of(
                "5affffffff07", // contract: 2^31 - 1 bytes follow
                "5affffffff0f", // contract: a length past int range
                "0affffffffffffffffff01", // ref_block_bytes: a ten-byte varint, negative as int64
                "0affffffffffffffffffff01", // a varint of eleven bytes
                "5a0512ffffffff07"); // contract[0].parameter: 2^31 - 1 bytes inside 5
        for (String claim : claims) {
            assertThatThrownBy(() -> TronTransaction.parse(HEX.parseHex(claim)))
                    .as(claim)
                    .isExactlyInstanceOf(TransactionFormatException.class)
                    .hasMessageStartingWith("raw_data is not a valid protobuf message");
        }
    }

    @Test
    void deepNestingIsRefused() throws InvalidProtocolBufferException {
        // Start-group tags of field 15 (an unknown field), 100,000 deep: protobuf stops at its recursion limit.
        byte[] groups = new byte[100_000];
        Arrays.fill(groups, (byte) 0x7b);
        RawTransaction vote = RawTransaction.parseFrom(TronVectors.named("vote").raw());
        RawTransaction transfer =
                RawTransaction.parseFrom(TronVectors.named("transfer").raw());

        assertThatThrownBy(() -> TronTransaction.parse(groups))
                .isExactlyInstanceOf(TransactionFormatException.class)
                .hasMessageStartingWith("raw_data is not a valid protobuf message");
        assertThatThrownBy(() -> TronTransaction.parse(withParameter(vote, groups)))
                .isExactlyInstanceOf(TransactionFormatException.class)
                .hasMessageStartingWith("contract[0].parameter.value (VoteWitnessContract) is not a valid protobuf");
        assertThatThrownBy(() -> TronTransaction.parse(withParameter(transfer, groups)))
                .isExactlyInstanceOf(TransactionFormatException.class)
                .hasMessageStartingWith("contract[0].parameter.value (TransferContract) is not a valid protobuf");
    }

    @Test
    void aHundredThousandContractsAreRefused() throws InvalidProtocolBufferException {
        RawTransaction transfer =
                RawTransaction.parseFrom(TronVectors.named("transfer").raw());
        byte[] contract = transfer.getContract(0).toByteArray();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (int i = 0; i < 100_000; i++) {
            out.write(0x5a);
            out.write(contract.length);
            out.writeBytes(contract);
        }

        assertThatThrownBy(() -> TronTransaction.parse(out.toByteArray()))
                .isExactlyInstanceOf(TransactionFormatException.class)
                .hasMessageStartingWith("raw_data is ")
                .hasMessageEndingWith("bytes; Tron transactions are at most 512000");
    }

    /** 1 when refused, 0 when read (and then the value must have its declared shape). */
    private static int readOrRefuse(byte[] bytes) {
        TronTransaction transaction;
        try {
            transaction = TronTransaction.parse(bytes);
        } catch (TransactionFormatException e) {
            assertThat(e.getMessage()).isNotBlank();
            return 1;
        }
        assertThat(TronTransaction.POLICY_TYPE.mismatch(transaction.policyValue()))
                .isEmpty();
        assertThat(transaction.signingDigest()).hasSize(32);
        return 0;
    }

    private static byte[] withParameter(RawTransaction raw, byte[] value) {
        var contract = raw.getContract(0).toBuilder();
        contract.setParameter(contract.getParameter().toBuilder().setValue(ByteString.copyFrom(value)));
        return raw.toBuilder().setContract(0, contract).build().toByteArray();
    }
}
