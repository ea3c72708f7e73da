package dev.keyhaven.server.oauth2;

import dev.keyhaven.server.api.ApiException;
import dev.keyhaven.server.api.ErrorCode;
import dev.keyhaven.server.api.Params;
import dev.keyhaven.server.api.WireEnum;

/** {@code v1Oauth2Provider}: the OAuth 2.0 providers whose authorization codes Keyhaven exchanges. */
public enum Oauth2Provider implements WireEnum {
    OAUTH2_PROVIDER_X,
    OAUTH2_PROVIDER_DISCORD;

    @Override
    public String wireName() {
        return name();
    }

    /** The provider {@code name} names, or Turnkey's {@code INVALID_OAUTH2_PROVIDER} (400) naming the field. */
    static Oauth2Provider read(Params p, String name) {
        String value = p.requiredString(name);
        return WireEnum.fromWire(Oauth2Provider.class, value)
                .orElseThrow(() -> new ApiException(
                        ErrorCode.INVALID_OAUTH2_PROVIDER,
                        "bad request body: " + p.pathOf(name) + " must be " + OAUTH2_PROVIDER_X + " or "
                                + OAUTH2_PROVIDER_DISCORD,
                        p.pathOf(name)));
    }
}
