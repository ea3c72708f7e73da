package dev.keyhaven.server.signing;

import static dev.keyhaven.server.activity.VersionTable.version;

import dev.keyhaven.server.activity.ActivityAction;
import dev.keyhaven.server.activity.ActivityContext;
import dev.keyhaven.server.activity.ActivityEffect;
import dev.keyhaven.server.activity.ActivityHandler;
import dev.keyhaven.server.activity.ActivityResource;
import dev.keyhaven.server.activity.ActivitySpec;
import dev.keyhaven.server.activity.ActivityType;
import dev.keyhaven.server.activity.PolicyFacts;
import dev.keyhaven.server.activity.VersionTable;
import dev.keyhaven.server.api.Params;
import dev.keyhaven.server.custody.Custody;
import dev.keyhaven.server.state.StateReads;
import java.util.List;

/** {@code sign_raw_payload} (V2, V1): one signature by a wallet account or private key; result {@code r, s, v}. */
public final class SignRawPayloadHandler implements ActivityHandler<SignRequest> {
    /** V1 ({@code @turnkey/http} ≤ 1.2) names the key by {@code privateKeyId}; both answer {@code r, s, v}. */
    static final VersionTable<SignRequest> VERSIONS = VersionTable.of(
            version(
                    ActivityType.SIGN_RAW_PAYLOAD_V2,
                    "signRawPayloadIntentV2",
                    "signRawPayloadResult",
                    p -> SignRequest.read(p, "signWith", List.of(p.requiredString("payload")), "payload", true)),
            version(
                    ActivityType.SIGN_RAW_PAYLOAD,
                    "signRawPayloadIntent",
                    "signRawPayloadResult",
                    p -> SignRequest.read(p, "privateKeyId", List.of(p.requiredString("payload")), "payload", true)));

    private static final ActivitySpec SPEC = ActivitySpec.of(
                    "sign_raw_payload", ActivityResource.PRIVATE_KEY, ActivityAction.SIGN, VERSIONS)
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
        return parse(p, ActivityType.SIGN_RAW_PAYLOAD_V2);
    }

    @Override
    public SignRequest parse(Params p, ActivityType type) {
        return VERSIONS.read(p, type);
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
