package dev.keyhaven.crypto.address;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HexFormat;
import java.util.Random;
import org.junit.jupiter.api.Test;

class Base58Test {
    private static final HexFormat HEX = HexFormat.of();

    @Test
    void leadingZeroBytesBecomeLeadingFirstCharacters() {
        assertThat(Base58.BITCOIN.encode(new byte[] {0, 0, 1})).isEqualTo("112");
        assertThat(Base58.RIPPLE.encode(new byte[] {0, 0, 1})).isEqualTo("rrp");
        assertThat(Base58.BITCOIN.encode(new byte[0])).isEmpty();
        assertThat(Base58.BITCOIN.decode("112")).containsExactly(0, 0, 1);
    }

    @Test
    void randomBytesRoundTripInBothAlphabets() {
        Random random = new Random(42);
        for (int length = 0; length < 70; length++) {
            byte[] data = new byte[length];
            random.nextBytes(data);
            if (length > 2) {
                data[0] = 0;
            }
            assertThat(Base58.BITCOIN.decode(Base58.BITCOIN.encode(data))).isEqualTo(data);
            assertThat(Base58.RIPPLE.decode(Base58.RIPPLE.encode(data))).isEqualTo(data);
        }
    }

    @Test
    void decodingRejectsCharactersOutsideTheAlphabet() {
        assertThatThrownBy(() -> Base58.BITCOIN.decode("10")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Base58.BITCOIN.decode("1l")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Base58.BITCOIN.decode("1é")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void base58CheckDecodesTheBip49AddressToItsVersionAndScriptHash() {
        // bip-0049.mediawiki: addressBytes = 336caa13…6742, testnet P2SH version 0xc4.
        assertThat(HEX.formatHex(Base58Check.decode(Base58.BITCOIN, "2Mww8dCYPUpKHofjgcXcBCEGmniw9CoaiD2")))
                .isEqualTo("c4336caa13e08b96080a32b5d818d59b4ab3b36742");
    }

    @Test
    void base58CheckRejectsAChangedCharacter() {
        assertThatThrownBy(() -> Base58Check.decode(Base58.BITCOIN, "2Mww8dCYPUpKHofjgcXcBCEGmniw9CoaiD3"))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void rippleAlphabetGivesTheXrpAccountZero() {
        // The XRP Ledger's ACCOUNT_ZERO: AccountID of twenty zero bytes.
        assertThat(Base58Check.encode(Base58.RIPPLE, 0, new byte[20])).isEqualTo("rrrrrrrrrrrrrrrrrrrrrhoLvTp");
    }
}
