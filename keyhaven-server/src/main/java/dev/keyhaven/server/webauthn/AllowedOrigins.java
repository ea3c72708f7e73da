package dev.keyhaven.server.webauthn;

import com.webauthn4j.data.client.Origin;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The web origins whose passkey ceremonies Keyhaven accepts (the role of Turnkey's
 * {@code FEATURE_NAME_WEBAUTHN_ORIGINS}). By default any origin is accepted, as on Turnkey: the signature still binds
 * the assertion to the relying-party id the passkey was registered for, and applications on many domains share one
 * server. Operators who know their front ends list them to stop a passkey from being exercised by pages elsewhere.
 */
public final class AllowedOrigins {
    private static final String ANY = "*";

    /** Empty means any origin. */
    private final Optional<Set<Origin>> origins;

    private AllowedOrigins(Optional<Set<Origin>> origins) {
        this.origins = origins;
    }

    /** Every origin. */
    public static AllowedOrigins any() {
        return new AllowedOrigins(Optional.empty());
    }

    /**
     * Parses configured origins such as {@code https://app.example.com} or {@code http://localhost:3000}; a
     * {@code *} entry (or no entry) means any origin.
     *
     * @throws IllegalArgumentException when an entry is not an origin (scheme and host, optional port, no path)
     */
    public static AllowedOrigins of(List<String> configured) {
        Set<Origin> parsed = new LinkedHashSet<>();
        for (String entry : configured) {
            String trimmed = entry.strip();
            if (trimmed.equals(ANY)) {
                return any();
            }
            if (!trimmed.isEmpty()) {
                parsed.add(parse(trimmed));
            }
        }
        return parsed.isEmpty() ? any() : new AllowedOrigins(Optional.of(Set.copyOf(parsed)));
    }

    /** Whether a ceremony run by a page of {@code origin} is accepted. */
    boolean allows(Origin origin) {
        return origin != null && origins.map(set -> set.contains(origin)).orElse(true);
    }

    /** Whether every origin is accepted. */
    boolean isAny() {
        return origins.isEmpty();
    }

    private static Origin parse(String origin) {
        Origin parsed;
        try {
            parsed = Origin.create(origin);
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("not a WebAuthn origin: " + origin, e);
        }
        boolean web = "https".equals(parsed.getScheme()) || "http".equals(parsed.getScheme());
        if (parsed.getScheme() == null || (web && (parsed.getHost() == null || hasPath(origin)))) {
            throw new IllegalArgumentException("not a WebAuthn origin (scheme://host[:port]): " + origin);
        }
        return parsed;
    }

    private static boolean hasPath(String origin) {
        int authority = origin.indexOf("//");
        return authority >= 0 && origin.indexOf('/', authority + 2) >= 0;
    }

    @Override
    public String toString() {
        return origins.map(Object::toString).orElse(ANY);
    }
}
