package dev.keyhaven.server.signing;

import dev.keyhaven.server.custody.Custody;
import dev.keyhaven.server.state.StateReads;

/** A transaction parsed by its chain, kept with that chain so the two stay matched through the activity. */
record UnsignedTransaction<T>(ChainSigning<T> chain, T transaction) {

    static <T> UnsignedTransaction<T> parse(ChainSigning<T> chain, byte[] unsigned) {
        return new UnsignedTransaction<>(chain, chain.parse(unsigned));
    }

    ChainSigning.Keyword policyKeyword(SigningKeys.Resolved key, StateReads organization) {
        return chain.policyKeyword(transaction, key, organization);
    }

    byte[] sign(SigningKeys.Resolved key, Custody custody) {
        return chain.sign(transaction, key, custody);
    }

    @Override
    public String toString() {
        return "UnsignedTransaction[" + chain.getClass().getSimpleName() + "]";
    }
}
