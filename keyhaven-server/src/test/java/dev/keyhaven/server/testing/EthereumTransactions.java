package dev.keyhaven.server.testing;

import dev.keyhaven.crypto.eth.Rlp;
import java.math.BigInteger;
import java.util.HexFormat;

/** Unsigned EIP-1559 transactions for tests, serialised as wallets send them to sign_transaction. */
public final class EthereumTransactions {
    public static final BigInteger ONE_ETH = BigInteger.TEN.pow(18);
    private static final HexFormat HEX = HexFormat.of();

    private EthereumTransactions() {}

    /** {@code 0x02 ‖ rlp([chainId, nonce, tip, maxFee, gas, to, value, data, []])} on chain 1, hex without 0x. */
    public static String eip1559(String to, BigInteger value, String dataHex) {
        String digits = to.startsWith("0x") ? to.substring(2) : to;
        String data = dataHex.startsWith("0x") ? dataHex.substring(2) : dataHex;
        byte[][] fields = {
            Rlp.encodeInteger(BigInteger.ONE),
            Rlp.encodeInteger(BigInteger.ZERO),
            Rlp.encodeInteger(BigInteger.valueOf(1_000_000_000L)),
            Rlp.encodeInteger(BigInteger.valueOf(30_000_000_000L)),
            Rlp.encodeInteger(BigInteger.valueOf(100_000)),
            Rlp.encodeBytes(HEX.parseHex(digits)),
            Rlp.encodeInteger(value),
            Rlp.encodeBytes(HEX.parseHex(data)),
            Rlp.encodeList()
        };
        return "02" + HEX.formatHex(Rlp.encodeList(fields));
    }

    /** A plain transfer of {@code value} wei to {@code to}. */
    public static String transfer(String to, BigInteger value) {
        return eip1559(to, value, "");
    }
}
