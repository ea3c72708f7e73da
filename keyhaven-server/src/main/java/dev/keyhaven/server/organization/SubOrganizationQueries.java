package dev.keyhaven.server.organization;

import dev.keyhaven.crypto.address.Addresses;
import dev.keyhaven.server.api.ApiException;
import dev.keyhaven.server.api.Caller;
import dev.keyhaven.server.api.JsonMappers;
import dev.keyhaven.server.api.Pagination;
import dev.keyhaven.server.api.Params;
import dev.keyhaven.server.oidc.OidcVerifier;
import dev.keyhaven.server.oidc.VerifiedIdToken;
import dev.keyhaven.server.tx.Transactor;
import dev.keyhaven.server.tx.Tx;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;

/**
 * {@code list_suborgs} and {@code list_verified_suborgs}: the ids of the requested organization's sub-organizations,
 * optionally those matching one {@code filterType}/{@code filterValue}, a page at a time.
 *
 * <p>Order and cursors: sub-organizations come in creation order, oldest first (the id breaks ties). The cursor is a
 * sub-organization id of the same parent: {@code after} gives the page that follows it, {@code before} the page that
 * precedes it, still oldest first. A cursor that is not one of the parent's sub-organizations is a 400 naming it.
 * {@code limit} is 1 to 100, default 10. An empty page ends the list.
 */
public final class SubOrganizationQueries {
    /** The filter types of {@code list_suborgs}, as Turnkey names them. */
    static final List<String> FILTER_TYPES = List.of(
            "NAME",
            "USERNAME",
            "EMAIL",
            "PHONE_NUMBER",
            "CREDENTIAL_ID",
            "PUBLIC_KEY",
            "WALLET_ACCOUNT_ADDRESS",
            "OIDC_TOKEN",
            "OAUTH_CLAIM");

    /** Those of {@code list_verified_suborgs}: contacts, the only things that are verified. */
    static final List<String> VERIFIED_FILTER_TYPES = List.of("EMAIL", "PHONE_NUMBER");

    private final Transactor transactor;
    private final OrganizationRepository organizations;
    private final OidcVerifier oidc;
    private final ObjectMapper json = JsonMappers.strict();

    SubOrganizationQueries(Transactor transactor, OrganizationRepository organizations, OidcVerifier oidc) {
        this.transactor = transactor;
        this.organizations = organizations;
        this.oidc = oidc;
    }

    /** {@code list_suborgs}: email and phone number match whether or not they are verified. */
    public Map<String, Object> listSuborgs(Caller caller, Params body) {
        return list(caller, body, filter(body, FILTER_TYPES, false));
    }

    /** {@code list_verified_suborgs}: a filter is required, and only verified contacts match. */
    public Map<String, Object> listVerifiedSuborgs(Caller caller, Params body) {
        if (!body.has("filterType")) {
            throw ApiException.badField(body.pathOf("filterType"), "is required: one of " + VERIFIED_FILTER_TYPES);
        }
        return list(caller, body, filter(body, VERIFIED_FILTER_TYPES, true));
    }

    private Map<String, Object> list(Caller caller, Params body, SubOrganizationFilter filter) {
        Pagination page = Pagination.read(body);
        String parent = caller.organizationId();
        List<String> ids = transactor.read(tx -> {
            checkCursor(tx, parent, body, page);
            return organizations.subOrganizationIds(tx, parent, filter, page);
        });
        return Map.of("organizationIds", ids);
    }

    private void checkCursor(Tx tx, String parent, Params body, Pagination page) {
        Optional<String> cursor = page.after().or(page::before);
        if (cursor.isEmpty()) {
            return;
        }
        boolean ours = organizations
                .find(tx, cursor.get())
                .flatMap(Organization::parentId)
                .filter(parent::equals)
                .isPresent();
        if (!ours) {
            Params options = body.requiredObject("paginationOptions");
            throw ApiException.badField(
                    options.pathOf(page.after().isPresent() ? "after" : "before"),
                    "is not a sub-organization of " + parent);
        }
    }

    private SubOrganizationFilter filter(Params body, List<String> accepted, boolean verifiedOnly) {
        Optional<String> type = body.optionalString("filterType").filter(t -> !t.isEmpty());
        Optional<String> value = body.optionalString("filterValue");
        if (type.isEmpty()) {
            if (value.filter(v -> !v.isEmpty()).isPresent()) {
                throw ApiException.badField(body.pathOf("filterType"), "is required with filterValue");
            }
            return new SubOrganizationFilter.All();
        }
        if (!accepted.contains(type.get())) {
            throw ApiException.badField(body.pathOf("filterType"), "must be one of " + accepted);
        }
        String field = body.pathOf("filterValue");
        String v = value.filter(s -> !s.isEmpty())
                .orElseThrow(() -> ApiException.badField(field, "is required with filterType " + type.get()));
        return switch (type.get()) {
            case "NAME" -> new SubOrganizationFilter.Name(v);
            case "USERNAME" -> new SubOrganizationFilter.Username(v);
            case "EMAIL" -> new SubOrganizationFilter.Email(v.toLowerCase(Locale.ROOT), verifiedOnly);
            case "PHONE_NUMBER" -> new SubOrganizationFilter.PhoneNumber(v, verifiedOnly);
            case "CREDENTIAL_ID" -> new SubOrganizationFilter.CredentialId(v);
            case "PUBLIC_KEY" -> new SubOrganizationFilter.PublicKey(v.toLowerCase(Locale.ROOT));
            case "WALLET_ACCOUNT_ADDRESS" -> new SubOrganizationFilter.Address(Addresses.lookupKey(v));
            case "OIDC_TOKEN" -> {
                VerifiedIdToken token = oidc.verify(v, Optional.empty());
                yield new SubOrganizationFilter.OauthIdentity(token.issuer(), token.subject(), token.audience());
            }
            case "OAUTH_CLAIM" -> oauthClaim(v, field);
            default -> throw new IllegalStateException("unhandled filter type " + type.get());
        };
    }

    /** {@code OAUTH_CLAIM}'s value: {@code {"issuer", "subject", "audience"}} as a JSON string. */
    private SubOrganizationFilter oauthClaim(String value, String field) {
        JsonNode claim;
        try {
            claim = json.readTree(value);
        } catch (JacksonException e) {
            claim = null;
        }
        if (claim == null || !claim.isObject()) {
            throw ApiException.badField(field, "must be a JSON object with issuer, subject and audience");
        }
        String[] parts = new String[3];
        String[] names = {"issuer", "subject", "audience"};
        for (int i = 0; i < names.length; i++) {
            JsonNode part = claim.get(names[i]);
            if (part == null || !part.isString() || part.stringValue().isEmpty()) {
                throw ApiException.badField(
                        field, "must be a JSON object with issuer, subject and audience (" + names[i] + " is missing)");
            }
            parts[i] = part.stringValue();
        }
        return new SubOrganizationFilter.OauthIdentity(parts[0], parts[1], parts[2]);
    }
}
