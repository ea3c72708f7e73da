package dev.keyhaven.server.activity;

import dev.keyhaven.server.api.WireEnum;

/** What an activity acts on, as the policy language's {@code activity.resource} names it. */
public enum ActivityResource implements WireEnum {
    AUTH,
    AUTH_PROXY,
    CONFIG,
    CREDENTIAL,
    FIAT_TRANSACTION,
    INVITATION,
    MFA_POLICY,
    ON_RAMP_CREDENTIALS,
    ORGANIZATION,
    OTP,
    PAYMENT_METHOD,
    POLICY,
    PRIVATE_KEY,
    RECOVERY,
    SESSION_PROFILE,
    SMART_CONTRACT_INTERFACE,
    SPONSORSHIP,
    SUBSCRIPTION,
    TVC_APP,
    TVC_DEPLOYMENT,
    TVC_OPERATOR,
    TVC_QUORUM_KEY,
    USER,
    WALLET,
    WEBHOOK_ENDPOINT;

    @Override
    public String wireName() {
        return name();
    }
}
