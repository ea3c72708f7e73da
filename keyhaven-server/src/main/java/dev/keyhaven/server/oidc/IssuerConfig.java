package dev.keyhaven.server.oidc;

import java.net.URI;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * One entry of the trusted-issuers file: the issuer ({@code iss}), where its keys are (a JWKS URL, fetched with
 * caching, or a JWKS file read at start-up; exactly one), and the audiences ({@code aud}) its tokens must name.
 */
public record IssuerConfig(String issuer, Optional<URI> jwksUri, Optional<Path> jwksFile, List<String> audiences) {

    public IssuerConfig {
        audiences = List.copyOf(audiences);
        if (jwksUri.isPresent() == jwksFile.isPresent()) {
            throw new IllegalArgumentException("issuer " + issuer + " needs exactly one of jwksUri and jwksFile");
        }
    }
}
