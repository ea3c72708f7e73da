package dev.keyhaven.server.signing;

import dev.keyhaven.chains.TransactionFormatException;
import dev.keyhaven.policy.Value;
import dev.keyhaven.server.activity.ActivityAction;
import dev.keyhaven.server.activity.ActivityContext;
import dev.keyhaven.server.activity.ActivityEffect;
import dev.keyhaven.server.activity.ActivityHandler;
import dev.keyhaven.server.activity.ActivityResource;
import dev.keyhaven.server.activity.ActivitySpec;
import dev.keyhaven.server.activity.ActivityType;
import dev.keyhaven.server.activity.ActivityVersion;
import dev.keyhaven.server.activity.PolicyFacts;
import dev.keyhaven.server.api.ApiException;
import dev.keyhaven.server.api.ErrorCode;
import dev.keyhaven.server.api.Params;
import dev.keyhaven.server.custody.Custody;
import dev.keyhaven.server.smartcontract.ContractInterfaces;
import dev.keyhaven.server.state.StateReads;
import java.util.EnumMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * {@code sign_transaction} (V2 with {@code signWith}, and V1 with {@code privateKeyId}, which older SDKs send): signs
 * an unsigned transaction of the chain {@code type} names and returns the signed form as hex without {@code 0x},
 * what the official signers ({@code @turnkey/viem}, {@code @turnkey/ethers}, {@code @turnkey/solana}) expect. The
 * transaction is parsed before anything is recorded (a 400 naming {@code unsignedTransaction} when it does not
 * parse), and policies
 * read it ({@code eth.tx}, {@code solana.tx}, {@code tron.tx}, {@code bitcoin.tx}). Each chain is a
 * {@link ChainSigning}; {@code TRANSACTION_TYPE_TEMPO} is refused as not implemented.
 */
public final class SignTransactionHandler implements ActivityHandler<SignTransactionHandler.Intent> {
    private static final ActivitySpec SPEC = new ActivitySpec(
            "sign_transaction",
            ActivityResource.PRIVATE_KEY,
            ActivityAction.SIGN,
            List.of(
                    new ActivityVersion(
                            ActivityType.SIGN_TRANSACTION_V2, "signTransactionIntentV2", "signTransactionResult"),
                    new ActivityVersion(
                            ActivityType.SIGN_TRANSACTION, "signTransactionIntent", "signTransactionResult")),
            ActivityEffect.NONE);

    private final SigningKeys keys;
    private final Custody custody;
    private final Map<TransactionType, ChainSigning<?>> chains = new EnumMap<>(TransactionType.class);

    public SignTransactionHandler(SigningKeys keys, Custody custody, ContractInterfaces contracts) {
        this.keys = keys;
        this.custody = custody;
        chains.put(TransactionType.TRANSACTION_TYPE_ETHEREUM, new EthereumSigning(contracts));
        chains.put(TransactionType.TRANSACTION_TYPE_SOLANA, new SolanaSigning(contracts));
        chains.put(TransactionType.TRANSACTION_TYPE_TRON, new TronSigning());
        chains.put(TransactionType.TRANSACTION_TYPE_BITCOIN, new BitcoinSigning());
    }

    /** The validated parameters, with the transaction already parsed by its chain. */
    public record Intent(String signWith, TransactionType type, UnsignedTransaction<?> transaction) {}

    @Override
    public ActivitySpec spec() {
        return SPEC;
    }

    @Override
    public Intent parse(Params p) {
        return parse(p, ActivityType.SIGN_TRANSACTION_V2);
    }

    @Override
    public Intent parse(Params p, ActivityType type) {
        String signWith = p.requiredString(type == ActivityType.SIGN_TRANSACTION ? "privateKeyId" : "signWith");
        TransactionType chain = p.requiredEnum("type", TransactionType.class);
        String unsigned = p.requiredString("unsignedTransaction");
        ChainSigning<?> signing = chains.get(chain);
        if (signing == null) {
            throw new ApiException(
                    ErrorCode.UNIMPLEMENTED,
                    "sign_transaction does not support " + chain.wireName()
                            + " yet; sign the transaction's digest with sign_raw_payload",
                    p.pathOf("type"));
        }
        byte[] bytes = hex(unsigned, p.pathOf("unsignedTransaction"));
        try {
            return new Intent(signWith, chain, UnsignedTransaction.parse(signing, bytes));
        } catch (TransactionFormatException e) {
            throw ApiException.badField(
                    p.pathOf("unsignedTransaction"),
                    "is not an unsigned " + chain.chainName() + " transaction: " + e.getMessage());
        }
    }

    /**
     * {@code activity.params.type}, the key's owner, and the chain's transaction keyword. Without the key (signWith
     * names nothing) only the first: execution answers 404.
     */
    @Override
    public PolicyFacts policyFacts(StateReads organization, Intent intent) {
        PolicyFacts facts = SigningFacts.withKeyOwner(
                PolicyFacts.params(Map.of("type", Value.of(intent.type().wireName()))),
                organization,
                keys,
                intent.signWith());
        Optional<SigningKeys.Resolved> key = keys.find(organization, intent.signWith())
                .filter(k -> k.handle().curve() == intent.transaction().chain().curve());
        if (key.isEmpty()) {
            return facts;
        }
        ChainSigning.Keyword keyword = intent.transaction().policyKeyword(key.get(), organization);
        return facts.with(keyword.name(), keyword.value());
    }

    @Override
    public Object execute(ActivityContext context, Intent intent) {
        SigningKeys.Resolved key = keys.resolve(context.reads(), intent.signWith());
        if (key.handle().curve() != intent.transaction().chain().curve()) {
            throw ApiException.badRequest(intent.type().wireName() + " needs a "
                    + intent.transaction().chain().curve().wireName() + " key, not "
                    + key.handle().curve().wireName());
        }
        return new Result(HexFormat.of().formatHex(intent.transaction().sign(key, custody)));
    }

    private static byte[] hex(String text, String field) {
        String digits = text.startsWith("0x") || text.startsWith("0X") ? text.substring(2) : text;
        if (digits.isEmpty()) {
            throw ApiException.badField(field, "is empty");
        }
        try {
            return HexFormat.of().parseHex(digits);
        } catch (IllegalArgumentException e) {
            throw ApiException.badField(field, "must be hexadecimal with an even number of digits");
        }
    }

    /** {@code signTransactionResult}. */
    public record Result(String signedTransaction) {}
}
