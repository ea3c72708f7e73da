package dev.keyhaven.server.authproxy;

import dev.keyhaven.server.activity.ActivityAction;
import dev.keyhaven.server.activity.ActivityContext;
import dev.keyhaven.server.activity.ActivityHandler;
import dev.keyhaven.server.activity.ActivityResource;
import dev.keyhaven.server.activity.ActivitySpec;
import dev.keyhaven.server.activity.ActivityType;
import dev.keyhaven.server.activity.ActivityVersion;
import dev.keyhaven.server.api.Params;

/**
 * {@code update_auth_proxy_config} ({@code ACTIVITY_TYPE_UPDATE_AUTH_PROXY_CONFIG}, Keyhaven's own intent shape):
 * without {@code configId}, creates a configuration for the organization from the defaults; with one, changes that
 * configuration of the organization. Fields: {@code allowedOrigins}, {@code emailEnabled}, {@code smsEnabled},
 * {@code otpLength} (6–9), {@code alphanumeric}, {@code otpExpirationSeconds} (≤ 600),
 * {@code sessionExpirationSeconds}, {@code appName}, {@code emailTemplateId}, {@code signupEnabled},
 * {@code enabledProviders} (the wallet kit's other login methods: {@code passkey}, {@code wallet}, {@code google},
 * {@code apple}, {@code facebook}, {@code x}, {@code discord}, and Keyhaven's {@code oidc} for other trusted issuers;
 * each sign-up method needs its own, see {@link SignUpMethods}), {@code oauthClientIds} (provider → client id),
 * {@code oauthRedirectUrl}, {@code captchaEnabled}; a field left out keeps its value. Result {@code updateAuthProxyConfigResult}: the whole configuration, with {@code configId}.
 */
final class UpdateAuthProxyConfigHandler implements ActivityHandler<Params> {
    private static final ActivitySpec SPEC = ActivitySpec.of(
            "update_auth_proxy_config",
            ActivityResource.AUTH_PROXY,
            ActivityAction.UPDATE,
            new ActivityVersion(
                    ActivityType.UPDATE_AUTH_PROXY_CONFIG,
                    "updateAuthProxyConfigIntent",
                    "updateAuthProxyConfigResult"));

    private final AuthProxyConfigs configs;

    public UpdateAuthProxyConfigHandler(AuthProxyConfigs configs) {
        this.configs = configs;
    }

    @Override
    public ActivitySpec spec() {
        return SPEC;
    }

    @Override
    public Params parse(Params p) {
        AuthProxyConfig.defaults("check", "check").with(p);
        return p;
    }

    @Override
    public Object execute(ActivityContext context, Params p) {
        return AuthProxyConfigs.view(configs.save(
                context.tx(),
                p.optionalString("configId"),
                context.organizationId(),
                p,
                context.now(),
                context.ids()::next));
    }
}
