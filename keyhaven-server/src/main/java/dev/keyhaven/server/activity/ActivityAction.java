package dev.keyhaven.server.activity;

import dev.keyhaven.server.api.WireEnum;

/** What an activity does to its resource, as the policy language's {@code activity.action} names it. */
public enum ActivityAction implements WireEnum {
    CREATE,
    UPDATE,
    DELETE,
    SIGN,
    EXPORT,
    IMPORT,
    VERIFY,
    ENCRYPT;

    @Override
    public String wireName() {
        return name();
    }
}
