package dev.keyhaven.server.signing;

import dev.keyhaven.chains.TransactionFormatException;
import dev.keyhaven.crypto.KeyCurve;
import dev.keyhaven.policy.Value;
import dev.keyhaven.server.custody.Custody;
import dev.keyhaven.server.state.StateReads;

/**
 * One chain's side of {@code sign_transaction}: reading its unsigned transactions (keyhaven-chains parses), what
 * policies see of one, and signing it with custody's key. One implementation per {@link TransactionType}.
 *
 * @param <T> the parsed transaction
 */
interface ChainSigning<T> {

    /** The curve whose keys sign this chain's transactions. */
    KeyCurve curve();

    /** @throws TransactionFormatException when the bytes are not an unsigned transaction of this chain */
    T parse(byte[] unsigned);

    /**
     * The keyword policies read for this chain ({@code eth}, {@code solana}, {@code tron}, {@code bitcoin}) and its
     * value for {@code transaction} signed by {@code key}.
     */
    Keyword policyKeyword(T transaction, SigningKeys.Resolved key, StateReads organization);

    /**
     * The signed transaction, in the form the chain's own tools accept.
     *
     * @throws dev.keyhaven.server.api.ApiException 400 when the key cannot sign this transaction
     */
    byte[] sign(T transaction, SigningKeys.Resolved key, Custody custody);

    /** A top-level policy keyword and its value. */
    record Keyword(String name, Value value) {}
}
