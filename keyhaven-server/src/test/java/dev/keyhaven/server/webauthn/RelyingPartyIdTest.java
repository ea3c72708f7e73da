package dev.keyhaven.server.webauthn;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import org.junit.jupiter.api.Test;

class RelyingPartyIdTest {

    @Test
    void candidatesAreTheHostAndItsParentDomainsButNeverATopLevelDomain() {
        assertThat(RelyingPartyId.candidates("login.app.example.com"))
                .containsExactly("login.app.example.com", "app.example.com", "example.com");
        assertThat(RelyingPartyId.candidates("example.com")).containsExactly("example.com");
    }

    @Test
    void aSingleLabelHostIsItsOwnOnlyCandidate() {
        assertThat(RelyingPartyId.candidates("localhost")).containsExactly("localhost");
    }

    @Test
    void anIpAddressIsNeverShortened() {
        assertThat(RelyingPartyId.candidates("192.168.1.20")).containsExactly("192.168.1.20");
        assertThat(RelyingPartyId.candidates("[::1]")).containsExactly("[::1]");
    }

    @Test
    void hostsAreComparedInLowerCaseWithoutATrailingDot() {
        assertThat(RelyingPartyId.candidates("App.Example.COM.")).containsExactly("app.example.com", "example.com");
    }

    @Test
    void derivesTheSuffixWhoseHashTheAuthenticatorDataCarries() {
        assertThat(RelyingPartyId.derive("login.app.example.com", sha256("example.com")))
                .contains("example.com");
        assertThat(RelyingPartyId.derive("login.app.example.com", sha256("login.app.example.com")))
                .contains("login.app.example.com");
        assertThat(RelyingPartyId.derive("localhost", sha256("localhost"))).contains("localhost");
    }

    @Test
    void derivesNothingForAnUnrelatedDomainOrATopLevelDomain() {
        assertThat(RelyingPartyId.derive("app.example.com", sha256("example.org")))
                .isEmpty();
        assertThat(RelyingPartyId.derive("app.example.com", sha256("com"))).isEmpty();
        assertThat(RelyingPartyId.derive("example.com", sha256("other.example.com")))
                .isEmpty();
    }

    private static byte[] sha256(String text) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
