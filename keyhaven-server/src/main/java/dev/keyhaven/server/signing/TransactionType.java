package dev.keyhaven.server.signing;

import dev.keyhaven.server.api.WireEnum;

/** Turnkey's {@code v1TransactionType}: the chain whose unsigned transaction sign_transaction is given. */
public enum TransactionType implements WireEnum {
    TRANSACTION_TYPE_ETHEREUM("Ethereum"),
    TRANSACTION_TYPE_SOLANA("Solana"),
    TRANSACTION_TYPE_TRON("Tron"),
    TRANSACTION_TYPE_BITCOIN("Bitcoin (PSBT)"),
    TRANSACTION_TYPE_TEMPO("Tempo");

    private final String chainName;

    TransactionType(String chainName) {
        this.chainName = chainName;
    }

    @Override
    public String wireName() {
        return name();
    }

    /** The chain's name, for messages. */
    public String chainName() {
        return chainName;
    }
}
