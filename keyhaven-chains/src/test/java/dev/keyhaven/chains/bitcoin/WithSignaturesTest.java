package dev.keyhaven.chains.bitcoin;

import static dev.keyhaven.chains.bitcoin.Fixtures.HEX;
import static dev.keyhaven.chains.bitcoin.Fixtures.KEY;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Signatures that do not belong where they are put are refused: Keyhaven never hands out an invalid PSBT. */
class WithSignaturesTest {
    private static final PartiallySignedTransaction MIXED =
            PartiallySignedTransaction.parse(Fixtures.named("mixed").psbt());
    private static final List<InputSignature> SIGNED = Fixtures.signAsK(MIXED.inputsSpendableBy(KEY));

    @Test
    void addsOnlySomeOfTheKeysSignaturesWhenGivenSome() {
        byte[] signed = MIXED.withSignatures(List.of(SIGNED.get(2)));

        PsbtMaps before = PsbtMaps.of(Fixtures.named("mixed").psbt());
        PsbtMaps after = PsbtMaps.of(signed);
        assertThat(after.input(4))
                .containsEntry(
                        "02" + HEX.formatHex(KEY), HEX.formatHex(SIGNED.get(2).value()))
                .hasSize(before.input(4).size() + 1);
        assertThat(after.input(1)).isEqualTo(before.input(1));
        assertThat(after.input(2)).isEqualTo(before.input(2));
    }

    @Test
    void refusesASignatureOverAnotherInputsSighash() {
        InputSignature misplaced = new InputSignature(
                4, InputToSign.Scheme.ECDSA, KEY, SIGNED.get(1).value());

        assertThatThrownBy(() -> MIXED.withSignatures(List.of(misplaced)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("the signature for input 4 does not verify against the input's sighash and the key");
    }

    @Test
    void refusesATaprootSignatureOverAnotherSighash() {
        byte[] signature = SIGNED.get(0).value();
        signature[63] ^= 1;

        assertThatThrownBy(() -> MIXED.withSignatures(List.of(InputSignature.taproot(1, signature))))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("the signature for input 1 does not verify against the input's sighash and output key");
    }

    @Test
    void refusesSignaturesForInputsThatAreNotTheKeysOrDoNotExist() {
        InputSignature onOthers = new InputSignature(
                0, InputToSign.Scheme.ECDSA, KEY, SIGNED.get(1).value());

        assertThatThrownBy(() -> MIXED.withSignatures(List.of(onOthers)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("input 0 is not one the key signs with ECDSA");
        assertThatThrownBy(() -> MIXED.withSignatures(
                        List.of(InputSignature.taproot(2, SIGNED.get(0).value()))))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("input 2 cannot take a taproot key-path signature: input 2: does not spend");
        assertThatThrownBy(() -> MIXED.withSignatures(
                        List.of(InputSignature.taproot(5, SIGNED.get(0).value()))))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("there is no input 5");
        assertThatThrownBy(() -> MIXED.withSignatures(List.of(SIGNED.get(1), SIGNED.get(1))))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("input 2 is given two signatures");
        assertThatThrownBy(() -> MIXED.withSignatures(List.of())).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void encodesEcdsaAsStrictDerWithSighashAll() {
        byte[] r = HEX.parseHex("00" + "11".repeat(31));
        byte[] s = HEX.parseHex("7f" + "22".repeat(31));

        InputSignature signature = InputSignature.ecdsa(0, KEY, r, s);

        // SEQUENCE(INTEGER r without its leading zero byte, INTEGER s) then 0x01.
        assertThat(HEX.formatHex(signature.value()))
                .isEqualTo("3043021f" + "11".repeat(31) + "0220" + "7f" + "22".repeat(31) + "01");
        assertThatThrownBy(() -> InputSignature.ecdsa(0, KEY, new byte[32], s))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> InputSignature.taproot(0, new byte[65])).isInstanceOf(IllegalArgumentException.class);
    }
}
