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
import dev.keyhaven.server.api.Params;
import dev.keyhaven.server.custody.Custody;
import dev.keyhaven.server.state.StateReads;
import java.util.List;

/** {@code sign_raw_payload} (V2): one signature by a wallet account or private key; result {@code r, s, v}. */
public final class SignRawPayloadHandler implements ActivityHandler<SignRequest> {
    private static final ActivitySpec SPEC = ActivitySpec.of(
                    "sign_raw_payload",
                    ActivityResource.PRIVATE_KEY,
                    ActivityAction.SIGN,
                    new ActivityVersion(
                            ActivityType.SIGN_RAW_PAYLOAD_V2, "signRawPayloadIntentV2", "signRawPayloadResult"))
            .withEffect(ActivityEffect.NONE);

    private final SigningKeys keys;
    private final Custody custody;

    public SignRawPayloadHandler(SigningKeys keys, Custody custody) {
        this.keys = keys;
        this.custody = custody;
    }

    @Override
    public ActivitySpec spec() {
        return SPEC;
    }

    @Override
    public SignRequest parse(Params p) {
        return SignRequest.read(p, List.of(p.requiredString("payload")), "payload", true);
    }

    @Override
    public PolicyFacts policyFacts(StateReads organization, SignRequest request) {
        return SigningFacts.of(organization, keys, request);
    }

    @Override
    public Object execute(ActivityContext context, SignRequest request) {
        SigningKeys.Resolved key = keys.resolve(context.reads(), request.signWith());
        return SignRequest.WireSignature.of(request.sign(custody, key.handle()).getFirst());
    }
}
