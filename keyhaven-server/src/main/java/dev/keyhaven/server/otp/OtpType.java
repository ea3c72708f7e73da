package dev.keyhaven.server.otp;

import dev.keyhaven.server.api.WireEnum;

/** How a code is delivered ({@code v1OtpType}; WhatsApp is not supported). */
public enum OtpType implements WireEnum {
    OTP_TYPE_EMAIL,
    OTP_TYPE_SMS;

    @Override
    public String wireName() {
        return name();
    }
}
