package dev.keyhaven.server.signing;

import dev.keyhaven.server.api.WireEnum;

/** The chains whose unsigned transactions sign_transaction parses; Keyhaven signs Ethereum's so far. */
public enum TransactionType implements WireEnum {
    TRANSACTION_TYPE_ETHEREUM,
    TRANSACTION_TYPE_SOLANA,
    TRANSACTION_TYPE_TRON,
    TRANSACTION_TYPE_BITCOIN,
    TRANSACTION_TYPE_TEMPO;

    @Override
    public String wireName() {
        return name();
    }
}
