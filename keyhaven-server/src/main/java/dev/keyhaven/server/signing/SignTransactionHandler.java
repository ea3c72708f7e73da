package dev.keyhaven.server.signing;

import dev.keyhaven.crypto.KeyCurve;
import dev.keyhaven.crypto.eth.EthereumTransaction;
import dev.keyhaven.server.activity.ActivityAction;
import dev.keyhaven.server.activity.ActivityEffect;
import dev.keyhaven.server.activity.ActivityContext;
import dev.keyhaven.server.activity.ActivityHandler;
import dev.keyhaven.server.activity.ActivityResource;
import dev.keyhaven.server.activity.ActivitySpec;
import dev.keyhaven.server.activity.ActivityType;
import dev.keyhaven.policy.Value;
import dev.keyhaven.server.activity.ActivityVersion;
import dev.keyhaven.server.activity.PolicyFacts;
import dev.keyhaven.server.state.StateReads;
import java.util.Map;
import dev.keyhaven.server.api.ApiException;
import dev.keyhaven.server.api.ErrorCode;
import dev.keyhaven.server.api.Params;
import dev.keyhaven.server.custody.Custody;
import java.util.HexFormat;

/**
 * {@code sign_transaction} (V2) for {@code TRANSACTION_TYPE_ETHEREUM}: signs the Keccak-256 of the unsigned
 * transaction (legacy, EIP-155, or typed 0x01–0x04) with a secp256k1 key and returns the signed serialisation as hex
 * without {@code 0x}, which is what {@code @turnkey/viem} and {@code @turnkey/ethers} expect. Other chains are
 * refused as not implemented.
 */
public final class SignTransactionHandler implements ActivityHandler<SignTransactionHandler.Intent> {
    private static final ActivitySpec SPEC = ActivitySpec.of("sign_transaction", ActivityResource.PRIVATE_KEY,
            ActivityAction.SIGN,
            new ActivityVersion(ActivityType.SIGN_TRANSACTION_V2, "signTransactionIntentV2", "signTransactionResult"))
            .withEffect(ActivityEffect.NONE);

    private final SigningKeys keys;
    private final Custody custody;

    public SignTransactionHandler(SigningKeys keys, Custody custody) {
        this.keys = keys;
        this.custody = custody;
    }

    /** The validated parameters, with the transaction already parsed. */
    public record Intent(String signWith, TransactionType type, EthereumTransaction transaction) {
    }

    @Override
    public ActivitySpec spec() {
        return SPEC;
    }

    @Override
    public Intent parse(Params p) {
        String signWith = p.requiredString("signWith");
        TransactionType type = p.requiredEnum("type", TransactionType.class);
        String unsigned = p.requiredString("unsignedTransaction");
        if (type != TransactionType.TRANSACTION_TYPE_ETHEREUM) {
            throw new ApiException(ErrorCode.UNIMPLEMENTED, "sign_transaction supports TRANSACTION_TYPE_ETHEREUM; "
                    + type.wireName() + " is not supported yet (sign the transaction's message with "
                    + "sign_raw_payload)", p.pathOf("type"));
        }
        String digits = unsigned.startsWith("0x") ? unsigned.substring(2) : unsigned;
        byte[] bytes;
        try {
            bytes = HexFormat.of().parseHex(digits);
        } catch (IllegalArgumentException e) {
            throw ApiException.badField(p.pathOf("unsignedTransaction"), "must be hexadecimal with an even number "
                    + "of digits");
        }
        try {
            return new Intent(signWith, type, EthereumTransaction.parseUnsigned(bytes));
        } catch (IllegalArgumentException e) {
            throw ApiException.badField(p.pathOf("unsignedTransaction"), "is not an unsigned Ethereum transaction: "
                    + e.getMessage());
        }
    }

    /**
     * {@code activity.params.type} and the key's owner. {@code eth.tx} is not bound yet, so a policy reading it is an
     * error (and takes no part in the decision).
     */
    @Override
    public PolicyFacts policyFacts(StateReads organization, Intent intent) {
        return SigningFacts.withKeyOwner(PolicyFacts.params(Map.of("type", Value.of(intent.type().wireName()))),
                organization, keys, intent.signWith());
    }

    @Override
    public Object execute(ActivityContext context, Intent intent) {
        SigningKeys.Resolved key = keys.resolve(context.reads(), intent.signWith());
        if (key.handle().curve() != KeyCurve.SECP256K1) {
            throw ApiException.badRequest("TRANSACTION_TYPE_ETHEREUM needs a CURVE_SECP256K1 key, not "
                    + key.handle().curve().wireName());
        }
        EthereumTransaction tx = intent.transaction();
        return new Result(HexFormat.of().formatHex(tx.withSignature(custody.signDigest(key.handle(),
                tx.signingHash()))));
    }

    /** {@code signTransactionResult}. */
    public record Result(String signedTransaction) {
    }
}
