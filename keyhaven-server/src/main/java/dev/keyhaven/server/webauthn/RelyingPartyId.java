package dev.keyhaven.server.webauthn;

import dev.keyhaven.crypto.Digests;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Recovers the relying-party id (rpId) of a registration. Keyhaven serves many applications and is not told their
 * rpIds, but the authenticator data carries SHA-256(rpId), and a browser only accepts an rpId that is the origin's
 * host or a parent domain of it. So the rpId is the one such suffix of the origin's host whose hash matches.
 *
 * <p>Candidates are the host itself and each parent domain that still has two labels or more ({@code a.b.example.com},
 * {@code b.example.com}, {@code example.com}, never {@code com}); a single-label host such as {@code localhost} is its
 * own only candidate, and so is an IP address. Public suffixes such as {@code co.uk} are not filtered out: browsers
 * refuse them as rpIds, so no genuine registration carries their hash, and matching one grants nothing.
 */
final class RelyingPartyId {
    private static final Pattern IPV4 = Pattern.compile("[0-9]{1,3}(\\.[0-9]{1,3}){3}");

    private RelyingPartyId() {}

    /** The suffix of {@code host} whose SHA-256 is {@code rpIdHash}, if there is one. */
    static Optional<String> derive(String host, byte[] rpIdHash) {
        for (String candidate : candidates(host)) {
            if (MessageDigest.isEqual(sha256(candidate), rpIdHash)) {
                return Optional.of(candidate);
            }
        }
        return Optional.empty();
    }

    /** The rpIds a page on {@code host} may use, most specific first. */
    static List<String> candidates(String host) {
        String normalized = host.toLowerCase(Locale.ROOT);
        if (normalized.endsWith(".")) {
            normalized = normalized.substring(0, normalized.length() - 1);
        }
        if (normalized.isEmpty()) {
            return List.of();
        }
        List<String> out = new ArrayList<>();
        out.add(normalized);
        if (normalized.contains(":")
                || normalized.startsWith("[")
                || IPV4.matcher(normalized).matches()) {
            return out;
        }
        String rest = normalized;
        int dot = rest.indexOf('.');
        while (dot >= 0) {
            rest = rest.substring(dot + 1);
            dot = rest.indexOf('.');
            if (dot < 0) {
                break;
            }
            out.add(rest);
        }
        return List.copyOf(out);
    }

    private static byte[] sha256(String rpId) {
        return Digests.sha256(rpId.getBytes(StandardCharsets.UTF_8));
    }
}
