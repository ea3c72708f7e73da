package dev.keyhaven.server.user;

import dev.keyhaven.server.api.WireEnum;

/** How a passkey authenticator talks to the client. */
public enum AuthenticatorTransport implements WireEnum {
    AUTHENTICATOR_TRANSPORT_BLE,
    AUTHENTICATOR_TRANSPORT_INTERNAL,
    AUTHENTICATOR_TRANSPORT_NFC,
    AUTHENTICATOR_TRANSPORT_USB,
    AUTHENTICATOR_TRANSPORT_HYBRID;

    @Override
    public String wireName() {
        return name();
    }
}
