package dev.keyhaven.crypto.address;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HexFormat;
import org.junit.jupiter.api.Test;

/** TON cell hashing and wallet constants; the wallet addresses themselves are in pubkey-vectors.csv. */
class TonWalletTest {
    private static final HexFormat HEX = HexFormat.of();

    @Test
    void emptyCellHasTheWellKnownEmptyCellHash() {
        assertThat(HEX.formatHex(TonCell.builder().build().hash()))
                .isEqualTo("96a296d224f285c67bee93c30f8a309157f0daa35dc5b87e410b78630a09cfc7");
        assertThat(TonCell.builder().build().depth()).isZero();
    }

    @Test
    void depthIsOneMoreThanTheDeepestReference() {
        TonCell leaf = TonCell.builder().bit(true).build();
        TonCell code = TonCell.ofHash(new byte[32], 7);

        assertThat(TonCell.builder().ref(leaf).build().depth()).isEqualTo(1);
        assertThat(TonCell.builder().ref(leaf).ref(code).build().depth()).isEqualTo(8);
    }

    @Test
    void unalignedDataIsPaddedWithAOneBitSoItHashesDifferentlyFromAlignedZeros() {
        TonCell sevenZeros = TonCell.builder().uint(0, 7).build();
        TonCell eightZeros = TonCell.builder().uint(0, 8).build();

        assertThat(sevenZeros.hash()).isNotEqualTo(eightZeros.hash());
    }

    @Test
    void v5r1MainnetWalletIdIsTheValueOfAddressesMd() {
        assertThat(TonWallet.v5r1WalletId(-239, 0, 0)).isEqualTo(0x7FFFFF11).isEqualTo(2147483409);
    }

    @Test
    void v5r1TestnetWalletIdFlipsTheLowBitsOfTheOtherGlobalId() {
        assertThat(TonWallet.v5r1WalletId(-3, 0, 0)).isEqualTo(0x7FFFFFFD);
    }

    @Test
    void v5r1DefaultWalletIdIsTheMainnetOne() {
        byte[] key = HEX.parseHex("5754865e86d0ade1199301bbb0319a25ed6b129c4b0a57f28f62449b3df9c522");

        assertThat(TonWallet.V5R1.accountId(key)).isEqualTo(TonWallet.V5R1.accountId(0x7FFFFF11, key));
        assertThat(TonWallet.V5R1.accountId(key)).isNotEqualTo(TonWallet.V5R1.accountId(0x7FFFFFFD, key));
    }

    @Test
    void theThreeVersionsGiveThreeDifferentAccounts() {
        byte[] key = HEX.parseHex("5754865e86d0ade1199301bbb0319a25ed6b129c4b0a57f28f62449b3df9c522");

        assertThat(TonWallet.V3R2.accountId(key)).isNotEqualTo(TonWallet.V4R2.accountId(key));
        assertThat(TonWallet.V4R2.accountId(key)).isNotEqualTo(TonWallet.V5R1.accountId(key));
    }
}
