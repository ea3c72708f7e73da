package dev.keyhaven.server.policy;

import dev.keyhaven.policy.engine.Effect;
import dev.keyhaven.server.api.WireEnum;

/** {@code v1Effect}: what a policy does to the activities it applies to. */
public enum PolicyEffect implements WireEnum {
    ALLOW(Effect.ALLOW),
    DENY(Effect.DENY);

    private final Effect effect;

    PolicyEffect(Effect effect) {
        this.effect = effect;
    }

    Effect effect() {
        return effect;
    }

    @Override
    public String wireName() {
        return "EFFECT_" + name();
    }
}
