package dev.keyhaven.server.user;

import dev.keyhaven.server.api.WireEnum;

/** What a tag labels. */
public enum TagType implements WireEnum {
    TAG_TYPE_USER,
    TAG_TYPE_PRIVATE_KEY;

    @Override
    public String wireName() {
        return name();
    }
}
