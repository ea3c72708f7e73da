package dev.keyhaven.server.otp;

import dev.keyhaven.crypto.EcCurve;
import dev.keyhaven.crypto.VerifyingKey;
import dev.keyhaven.server.api.ApiException;
import dev.keyhaven.server.api.ErrorCode;
import dev.keyhaven.server.api.Ids;
import dev.keyhaven.server.api.Params;
import dev.keyhaven.server.mail.MailAddresses;
import dev.keyhaven.server.organization.FeatureName;
import dev.keyhaven.server.organization.Organization;
import dev.keyhaven.server.organization.OrganizationFeatures;
import dev.keyhaven.server.organization.OrganizationRepository;
import dev.keyhaven.server.recovery.CodeMail;
import dev.keyhaven.server.session.Sessions;
import dev.keyhaven.server.sms.SmsException;
import dev.keyhaven.server.sms.SmsSender;
import dev.keyhaven.server.tx.Transactor;
import dev.keyhaven.server.tx.Tx;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.json.JsonMapper;

/**
 * The OTP flow, shared by the activities and the auth proxy; every step runs inside the caller's write transaction.
 * A wrong code counts against the OTP even though the step fails (and its transaction rolls back): the count is kept
 * in memory at once and written to the OTP's row in a transaction of its own, so it holds across restarts.
 */
public final class OtpService implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(OtpService.class);
    private static final ObjectMapper JSON = JsonMapper.builder().build();
    private static final HexFormat HEX = HexFormat.of();
    private static final Pattern PHONE = Pattern.compile("\\+[1-9][0-9]{6,14}");

    /** Wrong codes an OTP survives; the next verification after that is refused even with the right code. */
    public static final int MAX_ATTEMPTS = 5;

    public static final long DEFAULT_OTP_SECONDS = 300;
    public static final long MAX_OTP_SECONDS = 600;
    public static final long DEFAULT_TOKEN_SECONDS = 3600;
    public static final long MAX_TOKEN_SECONDS = 86_400;
    public static final String LOGIN_USAGE = "USAGE_TYPE_LOGIN";

    private final OtpRepository otps;
    private final OtpKeys keys;
    private final CodeMail mail;
    private final SmsSender sms;
    private final Sessions sessions;
    private final OrganizationRepository organizations;
    private final OrganizationFeatures features;
    private final RateLimiter perContact;
    private final RateLimiter perAddress;
    private final Transactor transactor;
    private final SecureRandom random;
    private final Map<String, Integer> failures = new ConcurrentHashMap<>();
    private final ExecutorService attemptWriter = Executors.newSingleThreadExecutor(
            Thread.ofPlatform().daemon().name("otp-attempts").factory());

    public OtpService(
            OtpRepository otps,
            OtpKeys keys,
            CodeMail mail,
            SmsSender sms,
            Sessions sessions,
            OrganizationRepository organizations,
            RateLimiter perContact,
            RateLimiter perAddress,
            Transactor transactor,
            SecureRandom random) {
        this.otps = otps;
        this.keys = keys;
        this.mail = mail;
        this.sms = sms;
        this.sessions = sessions;
        this.organizations = organizations;
        this.features = new OrganizationFeatures(organizations);
        this.perContact = perContact;
        this.perAddress = perAddress;
        this.transactor = transactor;
        this.random = random;
    }

    /** The OTP signer's public key (hex, uncompressed). */
    public String signerPublicKey() {
        return keys.signerPublicKey();
    }

    public String sessionSignerPublicKey() {
        return sessions.signerPublicKey();
    }

    // ---- init ----------------------------------------------------------------------------------------------

    /** What to send: the channel, the contact, how the code looks and lives, and how the message looks. */
    public record CodeRequest(
            OtpType type,
            String contact,
            String appName,
            int length,
            boolean alphanumeric,
            long expirationSeconds,
            Optional<CodeMail.Look> email,
            Optional<String> smsTemplate) {}

    /** {@code initOtpResultV2}. */
    public record Initiated(String otpId, String otpEncryptionTargetBundle) {}

    /** Validates a contact for its channel (400 naming {@code field}). */
    public static String contact(OtpType type, String contact, String field) {
        boolean valid = type == OtpType.OTP_TYPE_EMAIL
                ? MailAddresses.isValid(contact)
                : PHONE.matcher(contact).matches();
        if (!valid) {
            throw ApiException.badField(
                    field,
                    type == OtpType.OTP_TYPE_EMAIL
                            ? "is not an email address"
                            : "is not a phone number in E.164 form (+ and 7 to 15 digits)");
        }
        return contact;
    }

    /** Validates an OTP lifetime (default 5 minutes, at most 10). */
    public static long otpLifetime(Optional<Long> seconds, String field) {
        long value = seconds.orElse(DEFAULT_OTP_SECONDS);
        if (value < 1 || value > MAX_OTP_SECONDS) {
            throw ApiException.badField(field, "must be between 1 and " + MAX_OTP_SECONDS + " seconds");
        }
        return value;
    }

    /** Validates a code length (6 to 9). */
    public static int codeLength(Optional<Integer> length, int defaultLength, String field) {
        int value = length.orElse(defaultLength);
        if (value < 6 || value > 9) {
            throw ApiException.badField(field, "must be between 6 and 9");
        }
        return value;
    }

    /**
     * Creates an OTP of the newer flow ({@code init_otp}, the auth proxy) and sends its code. The answer is the same
     * whether or not a user has this contact.
     *
     * @param clientAddress the requester's address, counted by the per-address limit when known
     */
    public Initiated init(
            Tx tx, String organizationId, CodeRequest request, Optional<String> clientAddress, Instant now, Ids ids) {
        return init(tx, organizationId, OtpFlow.VERIFICATION_TOKEN, request, clientAddress, now, ids);
    }

    /** Creates an OTP of {@code flow} (only that flow checks its code) and sends its code. */
    public Initiated init(
            Tx tx,
            String organizationId,
            OtpFlow flow,
            CodeRequest request,
            Optional<String> clientAddress,
            Instant now,
            Ids ids) {
        // Before the SMS check and the rate limits: an organization that turned the channel off is told so first.
        features.require(
                tx,
                organizationId,
                request.type() == OtpType.OTP_TYPE_SMS ? FeatureName.SMS_AUTH : FeatureName.OTP_EMAIL_AUTH);
        if (request.type() == OtpType.OTP_TYPE_SMS && !sms.configured()) {
            throw ApiException.badRequest(
                    "SMS codes are not available: this server has no SMS provider " + "(serve --sms-provider)");
        }
        clientAddress.ifPresent(address -> perAddress.acquire(address, "client address"));
        perContact.acquire(
                organizationId + "|" + request.type() + "|" + request.contact().toLowerCase(java.util.Locale.ROOT),
                "contact");
        String otpId = ids.next();
        String code = OtpCodes.generate(random, request.length(), request.alphanumeric());
        OtpKeys.OtpTarget target = keys.newTarget(tx, organizationId, otpId);
        otps.deleteExpired(tx, now.minus(Duration.ofDays(1)));
        otps.insert(
                tx,
                new OtpRepository.StoredOtp(
                        otpId,
                        organizationId,
                        flow,
                        request.type(),
                        request.contact(),
                        keys.codeHash(otpId, code),
                        target.sealedKey(),
                        0,
                        now.plusSeconds(request.expirationSeconds()),
                        Optional.empty()),
                now);
        deliver(request, code);
        return new Initiated(otpId, target.bundle());
    }

    private void deliver(CodeRequest request, String code) {
        switch (request.type()) {
            case OTP_TYPE_EMAIL ->
                mail.send(request.email().orElseThrow(), request.contact(), code, request.expirationSeconds());
            case OTP_TYPE_SMS -> {
                String text = request.smsTemplate()
                        .filter(t -> t.contains("{{.OtpCode}}"))
                        .map(t -> t.replace("{{.OtpCode}}", code))
                        .orElse(request.appName() + ": your sign-in code is " + code + ". It expires in "
                                + Math.max(1, request.expirationSeconds() / 60) + " minutes.");
                try {
                    sms.send(request.contact(), text);
                } catch (SmsException e) {
                    throw new ApiException(
                            ErrorCode.UNAVAILABLE, "the code could not be sent by SMS: " + e.getMessage());
                }
            }
        }
    }

    // ---- verify --------------------------------------------------------------------------------------------

    /** {@code verifyOtpResult}. */
    public record Verified(String verificationToken) {
        @Override
        public String toString() {
            return "Verified[token redacted]";
        }
    }

    /** Validates a verification token lifetime (default an hour, at most a day). */
    public static long tokenLifetime(Optional<Long> seconds, String field) {
        long value = seconds.orElse(DEFAULT_TOKEN_SECONDS);
        if (value < 1 || value > MAX_TOKEN_SECONDS) {
            throw ApiException.badField(field, "must be between 1 and " + MAX_TOKEN_SECONDS + " seconds");
        }
        return value;
    }

    /**
     * Checks the code the client encrypted to the OTP's target and returns a verification token bound to the
     * client's public key. Unknown, used, expired and exhausted OTPs are refused; a wrong code counts. A bundle
     * that does not open is a 400 naming {@code bundleField} (where the request holds it).
     */
    public Verified verify(
            Tx tx,
            String organizationId,
            String otpId,
            String encryptedOtpBundle,
            String bundleField,
            long tokenSeconds,
            Instant now,
            Ids ids) {
        return verify(
                tx,
                organizationId,
                otpId,
                OtpFlow.VERIFICATION_TOKEN,
                otp -> keys.open(organizationId, otpId, otp.sealedKey(), encryptedOtpBundle, bundleField),
                bundleField,
                tokenSeconds,
                now,
                ids);
    }

    /**
     * The auth proxy's older {@code otp_verify}: the code in plain text, and optionally the key to bind the token to
     * (without one, the token's {@code public_key} is empty and its login needs no client signature).
     */
    public Verified verifyPlain(
            Tx tx,
            String organizationId,
            String otpId,
            String code,
            Optional<String> publicKey,
            String publicKeyField,
            long tokenSeconds,
            Instant now,
            Ids ids) {
        return verifyPlain(
                tx,
                organizationId,
                otpId,
                OtpFlow.VERIFICATION_TOKEN,
                code,
                publicKey,
                publicKeyField,
                tokenSeconds,
                now,
                ids);
    }

    /**
     * {@code verify_otp} V1 with {@code otpCode}: the code of an OTP that {@code init_otp} V1 or V2 sent, in plain
     * text, and optionally the key to bind the token to. OTPs of the encrypted flow are refused, as this flow's are
     * by {@link #verify(Tx, String, String, String, String, long, Instant, Ids)}.
     */
    public Verified verifyPlainCode(
            Tx tx,
            String organizationId,
            String otpId,
            String code,
            Optional<String> publicKey,
            String publicKeyField,
            long tokenSeconds,
            Instant now,
            Ids ids) {
        return verifyPlain(
                tx,
                organizationId,
                otpId,
                OtpFlow.PLAIN_CODE_TOKEN,
                code,
                publicKey,
                publicKeyField,
                tokenSeconds,
                now,
                ids);
    }

    private Verified verifyPlain(
            Tx tx,
            String organizationId,
            String otpId,
            OtpFlow flow,
            String code,
            Optional<String> publicKey,
            String publicKeyField,
            long tokenSeconds,
            Instant now,
            Ids ids) {
        return verify(
                tx,
                organizationId,
                otpId,
                flow,
                otp -> new OtpKeys.OtpAttempt(code, publicKey.orElse("")),
                publicKeyField,
                tokenSeconds,
                now,
                ids);
    }

    /**
     * The older {@code otp_auth}: checks the code in plain text (with the same rules: unknown, used, expired and
     * exhausted OTPs are refused; a wrong code counts) and answers with what it proves, the contact and its channel.
     */
    public TokenClaims verifyCode(Tx tx, String organizationId, String otpId, String code, Instant now, Ids ids) {
        // The token is never handed out: it carries the claims, and its id is used up by nothing else.
        Verified verified = verifyPlain(
                tx,
                organizationId,
                otpId,
                OtpFlow.CREDENTIAL_BUNDLE,
                code,
                Optional.empty(),
                "parameters.publicKey",
                60,
                now,
                ids);
        return unexpiredClaims(verified.verificationToken(), now);
    }

    private Verified verify(
            Tx tx,
            String organizationId,
            String otpId,
            OtpFlow flow,
            java.util.function.Function<OtpRepository.StoredOtp, OtpKeys.OtpAttempt> attemptOf,
            String keyField,
            long tokenSeconds,
            Instant now,
            Ids ids) {
        OtpRepository.StoredOtp otp = otps.find(tx, otpId)
                .filter(o -> o.organizationId().equals(organizationId))
                .orElseThrow(() -> ApiException.notFound("no OTP with id " + otpId + " in this organization"));
        if (otp.flow() != flow) {
            // Refused before the code is looked at: neither a wrong code counted nor a right one spent.
            throw ApiException.badRequest("this OTP was sent by " + otp.flow().sentBy() + ", so only "
                    + otp.flow().checkedBy() + " checks its code (the older and newer OTP sign-ins do not mix)");
        }
        if (otp.usedAt().isPresent()) {
            throw ApiException.badRequest("this OTP was already used; request a new code");
        }
        if (!now.isBefore(otp.expiresAt())) {
            throw ApiException.badRequest("this OTP has expired; request a new code");
        }
        int attempts = Math.max(otp.attempts(), failures.getOrDefault(otpId, 0));
        if (attempts >= MAX_ATTEMPTS) {
            throw ApiException.badRequest("too many wrong codes for this OTP; request a new code");
        }
        OtpKeys.OtpAttempt attempt = attemptOf.apply(otp);
        String publicKey = attempt.publicKey().isEmpty() ? "" : clientKey(attempt.publicKey(), keyField);
        byte[] expected = otp.codeHash().getBytes(StandardCharsets.US_ASCII);
        byte[] actual = keys.codeHash(otpId, OtpCodes.normalise(attempt.code())).getBytes(StandardCharsets.US_ASCII);
        if (!MessageDigest.isEqual(expected, actual)) {
            recordFailure(otpId, attempts + 1);
            throw ApiException.badRequest(
                    "invalid OTP code (" + Math.max(0, MAX_ATTEMPTS - attempts - 1) + " attempts left)");
        }
        if (!otps.markUsed(tx, otpId, now)) {
            throw ApiException.badRequest("this OTP was already used; request a new code");
        }
        Map<String, String> claims = new LinkedHashMap<>();
        claims.put("id", ids.next());
        claims.put("verification_type", otp.type().wireName());
        claims.put("contact", otp.contact());
        claims.put("organization_id", organizationId);
        claims.put("public_key", publicKey);
        claims.put("exp", Long.toString(now.plusSeconds(tokenSeconds).toEpochMilli()));
        return new Verified(keys.verificationToken(claims));
    }

    private static String clientKey(String hex, String field) {
        try {
            return HEX.formatHex(EcCurve.P256.compress(HEX.parseHex(hex.startsWith("0x") ? hex.substring(2) : hex)));
        } catch (IllegalArgumentException e) {
            throw ApiException.badField(field, "holds a public_key that is no P-256 key");
        }
    }

    private void recordFailure(String otpId, int attempts) {
        failures.merge(otpId, attempts, Math::max);
        attemptWriter.execute(() -> {
            try {
                transactor.write(tx -> {
                    otps.raiseAttempts(tx, otpId, attempts);
                    return null;
                });
                failures.remove(otpId, attempts);
            } catch (RuntimeException e) {
                LOG.atWarn()
                        .addKeyValue("otp", otpId)
                        .log(
                                "could not record a wrong OTP attempt: {}",
                                e.getClass().getSimpleName());
            }
        });
    }

    // ---- login ---------------------------------------------------------------------------------------------

    /** {@code clientSignature}: the token's key signing the login message. */
    public record ClientSignature(String publicKey, String scheme, String message, String signature) {}

    /**
     * otp_login's parameters, with where the request holds the token and the signature ({@code
     * parameters.verificationToken} in an activity, {@code verificationToken} in an auth proxy body): the errors
     * about them name those paths.
     */
    public record LoginRequest(
            String verificationToken,
            String publicKey,
            Optional<ClientSignature> clientSignature,
            long expirationSeconds,
            boolean invalidateExisting,
            Optional<String> sessionProfileId,
            String tokenField,
            String signatureField) {
        @Override
        public String toString() {
            return "LoginRequest[" + publicKey + ", token redacted]";
        }
    }

    /** Reads otp_login's parameters (the intent, or an auth-proxy body); every problem is a 400 naming the field. */
    public static LoginRequest readLogin(Params p, long defaultSessionSeconds, boolean signatureRequired) {
        String token = p.requiredString("verificationToken");
        String publicKey = Sessions.publicKey(p.requiredString("publicKey"), p.pathOf("publicKey"));
        Optional<Params> given = signatureRequired
                ? Optional.of(p.requiredObject("clientSignature"))
                : p.optionalObject("clientSignature");
        Optional<ClientSignature> signature = given.map(s -> {
            String scheme = s.optionalString("scheme").orElse("CLIENT_SIGNATURE_SCHEME_API_P256");
            if (!scheme.equals("CLIENT_SIGNATURE_SCHEME_API_P256")) {
                throw ApiException.badField(s.pathOf("scheme"), "must be CLIENT_SIGNATURE_SCHEME_API_P256");
            }
            return new ClientSignature(
                    s.requiredString("publicKey"), scheme, s.requiredString("message"), s.requiredString("signature"));
        });
        long lifetime = Sessions.lifetime(
                p.optionalUint64("expirationSeconds"), defaultSessionSeconds, p.pathOf("expirationSeconds"));
        return new LoginRequest(
                token,
                publicKey,
                signature,
                lifetime,
                p.optionalBoolean("invalidateExisting", false),
                p.optionalString("sessionProfileId").filter(id -> !id.isEmpty()),
                p.pathOf("verificationToken"),
                p.pathOf("clientSignature"));
    }

    /** The claims of a verification token this server issued. */
    public record TokenClaims(
            String id, OtpType type, String contact, String organizationId, String publicKey, Instant expiresAt) {}

    /**
     * Checks a login's verification token (issued here, unexpired, for {@code organizationId} or its parent) and its
     * client signature, before anything is looked up about the contact.
     *
     * @throws ApiException 400 otherwise
     */
    public TokenClaims claims(Tx tx, String organizationId, LoginRequest request, Instant now) {
        TokenClaims claims = claims(tx, organizationId, request.verificationToken(), request.tokenField(), now);
        checkClientSignature(claims, request);
        return claims;
    }

    private TokenClaims claims(Tx tx, String organizationId, String token, String field, Instant now) {
        TokenClaims claims = unexpiredClaims(token, field, now);
        if (!claims.organizationId().equals(organizationId)
                && !organizations
                        .find(tx, organizationId)
                        .flatMap(Organization::parentId)
                        .filter(claims.organizationId()::equals)
                        .isPresent()) {
            throw ApiException.badField(
                    field, "was issued for another organization (log in to it or to one of its sub-organizations)");
        }
        return claims;
    }

    /**
     * The claims of a verification token this server issued that has not expired, wherever it is used (an
     * {@code X-Stamp-Attested} stamp names no field: the caller's resolution checks the organization).
     *
     * @throws ApiException 400 naming {@code parameters.verificationToken} otherwise
     */
    public TokenClaims unexpiredClaims(String token, Instant now) {
        return unexpiredClaims(token, "parameters.verificationToken", now);
    }

    /**
     * The claims of a verification token this server issued that has not expired.
     *
     * @throws ApiException 400 naming {@code field} (where the request holds the token) otherwise
     */
    public TokenClaims unexpiredClaims(String token, String field, Instant now) {
        if (!keys.issuedToken(token)) {
            throw ApiException.badField(field, "is not a verification token of this server");
        }
        JsonNode c;
        try {
            c = JSON.readTree(Base64.getUrlDecoder().decode(token.split("\\.")[1]));
        } catch (JacksonException | IllegalArgumentException e) {
            throw ApiException.badField(field, "is malformed");
        }
        TokenClaims claims = new TokenClaims(
                c.path("id").asString(""),
                OtpType.valueOf(c.path("verification_type").asString()),
                c.path("contact").asString(""),
                c.path("organization_id").asString(""),
                c.path("public_key").asString(""),
                Instant.ofEpochMilli(Long.parseLong(c.path("exp").asString("0"))));
        if (!now.isBefore(claims.expiresAt())) {
            throw ApiException.badField(field, "has expired");
        }
        return claims;
    }

    /**
     * Records that a verification token signed a user up; false when it already did. A sign-up does not use the
     * token up for its login (core signs up, then logs in with the same token), but it signs up once.
     */
    public boolean useForSignUp(Tx tx, TokenClaims claims, Instant now) {
        return otps.useToken(tx, "signup:" + claims.id(), claims.organizationId(), now, claims.expiresAt());
    }

    /**
     * Logs in {@code userId} of {@code organizationId} with checked {@code claims}: uses the token up and opens a
     * session for the request's public key.
     */
    public String login(
            Tx tx,
            String organizationId,
            String userId,
            TokenClaims claims,
            LoginRequest request,
            Instant now,
            Ids ids) {
        if (!otps.useToken(tx, claims.id(), claims.organizationId(), now, claims.expiresAt())) {
            throw ApiException.badField(request.tokenField(), "was already used");
        }
        return sessions.open(
                tx,
                organizationId,
                userId,
                new Sessions.Request(request.publicKey(), request.expirationSeconds(), request.invalidateExisting()),
                now,
                ids);
    }

    /** The one user with the token's contact in {@code organizationId} (not in its sub-organizations). */
    public Optional<String> userIn(Tx tx, String organizationId, TokenClaims claims) {
        return otps.usersWithContact(tx, organizationId, claims.type(), claims.contact()).stream()
                .filter(m -> m.organizationId().equals(organizationId))
                .map(OtpRepository.Member::userId)
                .findFirst();
    }

    /**
     * The users whose email (case-insensitive) or phone number is {@code contact}, in {@code organizationId} and its
     * direct sub-organizations.
     */
    public java.util.List<OtpRepository.Member> usersWithContact(
            Tx tx, String organizationId, OtpType type, String contact) {
        return otps.usersWithContact(tx, organizationId, type, contact);
    }

    /** The users with the token's contact in {@code organizationId} and its direct sub-organizations. */
    public java.util.List<OtpRepository.Member> members(Tx tx, String organizationId, TokenClaims claims) {
        return otps.usersWithContact(tx, organizationId, claims.type(), claims.contact());
    }

    /**
     * A token bound to a key (every token of verify_otp V2) needs the client signature; a token of the older
     * plain-code verification without a key needs none.
     */
    private static void checkClientSignature(TokenClaims claims, LoginRequest request) {
        String field = request.signatureField();
        if (request.clientSignature().isEmpty()) {
            if (claims.publicKey().isEmpty()) {
                return;
            }
            throw ApiException.badField(field, "is required: the verification token is bound to a key");
        }
        ClientSignature s = request.clientSignature().get();
        String signer;
        try {
            signer = clientKey(s.publicKey(), field + ".publicKey");
        } catch (ApiException e) {
            throw ApiException.badField(field + ".publicKey", "is not a P-256 public key");
        }
        if (!signer.equals(claims.publicKey())) {
            throw ApiException.badField(field + ".publicKey", "is not the key the verification token was issued to");
        }
        JsonNode message;
        try {
            message = JSON.readTree(s.message());
        } catch (JacksonException e) {
            throw ApiException.badField(field + ".message", "must be the JSON login message");
        }
        String loginKey = message.path("login").path("publicKey").asString("");
        boolean sameKey;
        try {
            sameKey = clientKey(loginKey, field + ".message").equals(request.publicKey());
        } catch (ApiException e) {
            sameKey = false;
        }
        if (!sameKey
                || !claims.id().equals(message.path("tokenId").asString(""))
                || !LOGIN_USAGE.equals(message.path("type").asString(""))) {
            throw ApiException.badField(
                    field + ".message",
                    "must be {\"login\":{\"publicKey\":<the session key>}," + "\"tokenId\":<the token's id>,\"type\":\""
                            + LOGIN_USAGE + "\"}");
        }
        boolean valid;
        try {
            valid = VerifyingKey.ecdsaSha256(EcCurve.P256, HEX.parseHex(signer))
                    .verify(s.message().getBytes(StandardCharsets.UTF_8), HEX.parseHex(s.signature()));
        } catch (IllegalArgumentException e) {
            valid = false;
        }
        if (!valid) {
            throw ApiException.badField(field + ".signature", "does not verify with the token's key");
        }
    }

    @Override
    public void close() {
        attemptWriter.shutdown();
    }
}
