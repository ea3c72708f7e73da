package dev.keyhaven.chains.bitcoin;

import static dev.keyhaven.chains.bitcoin.Fixtures.KEY;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.keyhaven.chains.bitcoin.Fixtures.Case;
import dev.keyhaven.crypto.address.BitcoinNetwork;
import fr.acinq.secp256k1.Secp256k1;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * bitcoin-kmp's native secp256k1 is not on the classpath, so anything that reached it would fail: the whole path
 * (parse, what the key signs for every kind of input, signatures put in, bitcoin.tx) runs without it.
 */
class WithoutNativeSecp256k1Test {

    @Test
    void theNativeLibraryIsAbsent() {
        assertThatThrownBy(() -> Class.forName("fr.acinq.secp256k1.jni.NativeSecp256k1"))
                .isInstanceOf(ClassNotFoundException.class);
        // Loading the class runs its static initialiser, which looks for the native library and fails.
        assertThatThrownBy(() -> Secp256k1.Companion.get()).isInstanceOf(ExceptionInInitializerError.class);
    }

    @Test
    void everyCaseRunsFromParseToSignedPsbtWithoutIt() {
        for (Case c : Fixtures.cases()) {
            PartiallySignedTransaction psbt = PartiallySignedTransaction.parse(c.psbt());
            byte[] signed = psbt.withSignatures(Fixtures.signAsK(psbt.inputsSpendableBy(KEY)));
            psbt.policyValue(Optional.of(BitcoinNetwork.MAINNET));

            assertThat(signed).as(c.name()).isEqualTo(c.signedPsbt());
        }
    }
}
