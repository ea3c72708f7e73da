package dev.keyhaven.server.signing;

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
import dev.keyhaven.server.api.Params;
import dev.keyhaven.server.custody.Custody;
import dev.keyhaven.server.state.StateReads;
import java.util.List;

/** {@code sign_raw_payloads}: several payloads, one key, one activity; result {@code signatures[]} in order. */
final class SignRawPayloadsHandler implements ActivityHandler<SignRequest> {
    /** Enough for batch signing, small enough that one activity stays a short transaction. */
    static final int MAX_PAYLOADS = 100;

    private static final ActivitySpec SPEC = ActivitySpec.of(
                    "sign_raw_payloads",
                    ActivityResource.PRIVATE_KEY,
                    ActivityAction.SIGN,
                    new ActivityVersion(
                            ActivityType.SIGN_RAW_PAYLOADS, "signRawPayloadsIntent", "signRawPayloadsResult"))
            .withEffect(ActivityEffect.NONE);

    private final SigningKeys keys;
    private final Custody custody;

    public SignRawPayloadsHandler(SigningKeys keys, Custody custody) {
        this.keys = keys;
        this.custody = custody;
    }

    @Override
    public ActivitySpec spec() {
        return SPEC;
    }

    @Override
    public SignRequest parse(Params p) {
        List<String> payloads = p.requiredStrings("payloads");
        if (payloads.isEmpty()) {
            throw ApiException.badField(p.pathOf("payloads"), "must hold at least one payload");
        }
        if (payloads.size() > MAX_PAYLOADS) {
            throw ApiException.badField(p.pathOf("payloads"), "may hold at most " + MAX_PAYLOADS + " payloads");
        }
        return SignRequest.read(p, payloads, "payloads", false);
    }

    @Override
    public PolicyFacts policyFacts(StateReads organization, SignRequest request) {
        return SigningFacts.of(organization, keys, request);
    }

    @Override
    public Object execute(ActivityContext context, SignRequest request) {
        SigningKeys.Resolved key = keys.resolve(context.reads(), request.signWith());
        return new Result(request.sign(custody, key.handle()).stream()
                .map(SignRequest.WireSignature::of)
                .toList());
    }

    /** {@code signRawPayloadsResult}. */
    public record Result(List<SignRequest.WireSignature> signatures) {}
}
