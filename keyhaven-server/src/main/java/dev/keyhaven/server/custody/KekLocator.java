package dev.keyhaven.server.custody;

import java.net.URI;
import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * Where a KEK lives, with no secret in it: a file, or a key on a PKCS#11 token. The database records the current
 * one's locator, so a server that meets a data key wrapped by a newer KEK (after {@code kek rotate}) knows where to
 * find it.
 */
public sealed interface KekLocator {

    /**
     * The locator as a URI, the form the database records: {@code file:///…} for a file, and for a token key an RFC
     * 7512 PKCS#11 URI ({@code pkcs11:token=…;object=…;type=secret-key?module-path=…&pin-source=…}).
     */
    String uri();

    /**
     * Opens the KEK this locates, as a server following a rotation does.
     *
     * @throws CustodyException with one line naming the cause when it cannot
     */
    Kek open(java.security.SecureRandom random);

    /**
     * Reads what {@link #uri()} wrote.
     *
     * @throws CustodyException naming what is wrong, for a URI that is neither form
     */
    static KekLocator parse(String uri) {
        if (uri.startsWith("file:")) {
            try {
                return new File(Path.of(URI.create(uri)));
            } catch (IllegalArgumentException e) {
                throw new CustodyException("the recorded KEK locator '" + uri + "' is not a file URI");
            }
        }
        if (uri.startsWith("pkcs11:")) {
            String body = uri.substring("pkcs11:".length());
            int query = body.indexOf('?');
            Map<String, String> attributes = attributes(query < 0 ? body : body.substring(0, query), ";");
            Map<String, String> queries = attributes(query < 0 ? "" : body.substring(query + 1), "&");
            String token = attributes.get("token");
            String object = attributes.get("object");
            String module = queries.get("module-path");
            String pin = queries.get("pin-source");
            if (token == null || object == null || module == null || pin == null) {
                throw new CustodyException(
                        "the recorded KEK locator '" + uri + "' lacks one of token, object, module-path, pin-source");
            }
            return new Pkcs11(Path.of(module), token, object, Path.of(pin));
        }
        throw new CustodyException("the recorded KEK locator '" + uri + "' is neither file: nor pkcs11:");
    }

    private static Map<String, String> attributes(String text, String separator) {
        Map<String, String> out = new LinkedHashMap<>();
        for (String part : text.split(separator, -1)) {
            int equals = part.indexOf('=');
            if (equals > 0) {
                out.put(
                        part.substring(0, equals),
                        URLDecoder.decode(part.substring(equals + 1), StandardCharsets.UTF_8));
            }
        }
        return out;
    }

    /** A KEK held in a file: 32 bytes as hex, readable only by its owner. */
    record File(Path path) implements KekLocator {
        public File {
            Objects.requireNonNull(path, "path");
        }

        @Override
        public String uri() {
            return path.toAbsolutePath().toUri().toString();
        }

        @Override
        public Kek open(java.security.SecureRandom random) {
            return new FileKek(MasterKey.load(path), random);
        }

        @Override
        public String toString() {
            return "file " + path;
        }
    }

    /**
     * An AES-256 key labelled {@code keyLabel} on the PKCS#11 token labelled {@code tokenLabel}, reached through the
     * module {@code library}, the user PIN read from {@code pinFile}. The key is sensitive and never extractable.
     * {@link Pkcs11Kek#open} opens it; {@link Pkcs11Kek#init} (the {@code kek init} command) creates it when missing.
     */
    record Pkcs11(Path library, String tokenLabel, String keyLabel, Path pinFile) implements KekLocator {
        public Pkcs11 {
            Objects.requireNonNull(library, "library");
            Objects.requireNonNull(tokenLabel, "tokenLabel");
            Objects.requireNonNull(keyLabel, "keyLabel");
            Objects.requireNonNull(pinFile, "pinFile");
        }

        @Override
        public String uri() {
            return "pkcs11:token=" + encode(tokenLabel) + ";object=" + encode(keyLabel) + ";type=secret-key"
                    + "?module-path=" + encode(library.toAbsolutePath().toString())
                    + "&pin-source=" + encode(pinFile.toAbsolutePath().toString());
        }

        @Override
        public Kek open(java.security.SecureRandom random) {
            return Pkcs11Kek.open(this);
        }

        /** RFC 3986 percent-encoding as RFC 7512 asks (a space is %20, not +). */
        private static String encode(String value) {
            return URLEncoder.encode(value, StandardCharsets.UTF_8).replace("+", "%20");
        }

        @Override
        public String toString() {
            return "PKCS#11 key '" + keyLabel + "' on token '" + tokenLabel + "' (" + library + ")";
        }
    }
}
