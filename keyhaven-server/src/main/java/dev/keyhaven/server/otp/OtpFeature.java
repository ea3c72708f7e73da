package dev.keyhaven.server.otp;

import dev.keyhaven.server.activity.ActivityHandler;
import dev.keyhaven.server.organization.OrganizationRepository;
import dev.keyhaven.server.recovery.CodeMail;
import dev.keyhaven.server.session.BundleKeys;
import dev.keyhaven.server.session.Sessions;
import dev.keyhaven.server.sms.SmsSender;
import dev.keyhaven.server.tx.Transactor;
import java.security.SecureRandom;
import java.util.List;

/**
 * One-time passwords assembled: codes sent by mail or SMS, verified, and spent on a session (or, in the older
 * {@code init_otp_auth}/{@code otp_auth} flow, on a key delivered as a credential bundle). {@link #service()} also
 * serves the auth proxy and attested stamps; it is closed with the application.
 */
public final class OtpFeature {
    private final OtpService service;
    private final List<ActivityHandler<?>> handlers;

    /**
     * @param perContact the limit on codes sent to one email address or phone number
     * @param perAddress the limit on codes requested from one client address
     */
    public OtpFeature(
            Transactor transactor,
            OtpRepository otps,
            OtpKeys keys,
            CodeMail mail,
            SmsSender sms,
            Sessions sessions,
            OrganizationRepository organizations,
            RateLimiter perContact,
            RateLimiter perAddress,
            SecureRandom random,
            BundleKeys bundleKeys) {
        this.service = new OtpService(
                otps, keys, mail, sms, sessions, organizations, perContact, perAddress, transactor, random);
        this.handlers = List.of(
                new InitOtpHandler(service, mail),
                new VerifyOtpHandler(service),
                new OtpLoginHandler(service),
                new InitOtpAuthHandler(service, mail),
                new OtpAuthHandler(service, bundleKeys));
    }

    public List<ActivityHandler<?>> handlers() {
        return handlers;
    }

    public OtpService service() {
        return service;
    }
}
