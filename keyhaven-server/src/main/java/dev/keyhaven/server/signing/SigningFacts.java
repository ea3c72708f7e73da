package dev.keyhaven.server.signing;

import dev.keyhaven.policy.Value;
import dev.keyhaven.server.activity.PolicyFacts;
import dev.keyhaven.server.privatekey.PrivateKeyPolicyView;
import dev.keyhaven.server.state.StateReads;
import dev.keyhaven.server.wallet.Wallet;
import dev.keyhaven.server.wallet.WalletViews;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What policies read about a signing activity (turnkey-api.md §4): {@code activity.params} ({@code hash_function} and
 * {@code encoding} for raw payloads, {@code type} for transactions), the key's owner ({@code wallet} and
 * {@code wallet_account} for a wallet account, {@code private_key} for a private key; the other is left out, so a
 * policy reading it is an error), and for a single raw payload with a structured encoding {@code eth.eip_712}
 * ({@code primary_type}, {@code domain{name, version, chain_id, verifying_contract}}, {@code message}) or
 * {@code eth.eip_7702_authorization} ({@code address}, {@code chain_id}, {@code nonce}). A batch of several payloads
 * binds neither: a policy about one typed-data message must not admit a batch of others.
 */
final class SigningFacts {
    private SigningFacts() {}

    static PolicyFacts of(StateReads organization, SigningKeys keys, SignRequest request) {
        PolicyFacts facts = PolicyFacts.params(Map.of(
                "hash_function",
                Value.of(request.hashFunction().wireName()),
                "encoding",
                Value.of(request.encoding().wireName())));
        facts = withKeyOwner(facts, organization, keys, request.signWith());
        if (request.payloads().size() == 1 && request.payloads().getFirst() instanceof Payload.StructuredDigest s) {
            facts = switch (request.encoding()) {
                case PAYLOAD_ENCODING_EIP712 -> facts.with("eth", Value.struct(Map.of("eip_712", eip712(s.data()))));
                case PAYLOAD_ENCODING_EIP7702_AUTHORIZATION ->
                    facts.with("eth", Value.struct(Map.of("eip_7702_authorization", eip7702(s.data()))));
                default -> facts;
            };
        }
        return facts;
    }

    /** {@code wallet} + {@code wallet_account}, or {@code private_key}, for the key {@code signWith} names. */
    static PolicyFacts withKeyOwner(PolicyFacts facts, StateReads organization, SigningKeys keys, String signWith) {
        Optional<SigningKeys.Resolved> key = keys.find(organization, signWith);
        if (key.isEmpty()) {
            return facts;
        }
        if (key.get().account().isPresent()) {
            PolicyFacts withAccount = facts.with(
                    "wallet_account",
                    Value.struct(
                            Map.of("address", Value.of(key.get().account().get().address()))));
            Optional<Wallet> wallet =
                    keys.wallet(organization, key.get().account().get().walletId());
            return wallet.map(w -> withAccount.with("wallet", WalletViews.policyValue(w)))
                    .orElse(withAccount);
        }
        return key.get()
                .privateKey()
                .map(k -> facts.with(
                        "private_key", PrivateKeyPolicyView.of(k, keys.privateKeyTags(organization, k.id()))))
                .orElse(facts);
    }

    private static Value eip712(Map<String, Object> typedData) {
        Map<String, Value> domain = new HashMap<>();
        if (typedData.get("domain") instanceof Map<?, ?> d) {
            put(domain, "name", d.get("name"));
            put(domain, "version", d.get("version"));
            put(domain, "chain_id", d.get("chainId"));
            put(domain, "verifying_contract", d.get("verifyingContract"));
        }
        Map<String, Value> out = new HashMap<>();
        put(out, "primary_type", typedData.get("primaryType"));
        out.put("domain", Value.struct(domain));
        put(out, "message", typedData.get("message"));
        return Value.struct(out);
    }

    private static Value eip7702(Map<String, Object> authorization) {
        Map<String, Value> out = new HashMap<>();
        put(
                out,
                "address",
                authorization.get("address") != null
                        ? authorization.get("address")
                        : authorization.get("contractAddress"));
        put(out, "chain_id", authorization.get("chainId"));
        put(out, "nonce", authorization.get("nonce"));
        return Value.struct(out);
    }

    /** Adds {@code json} as a value unless it is null (then the field is absent, and reading it is an error). */
    private static void put(Map<String, Value> out, String field, Object json) {
        value(json).ifPresent(v -> out.put(field, v));
    }

    /** JSON as the policy language sees it: objects are structs, arrays lists, numbers integers. */
    private static Optional<Value> value(Object json) {
        return switch (json) {
            case null -> Optional.empty();
            case String s -> Optional.of(Value.of(s));
            case Boolean b -> Optional.of(Value.of(b));
            case BigInteger i -> integer(i);
            case Integer i -> Optional.of(Value.of(i.longValue()));
            case Long l -> Optional.of(Value.of(l));
            case BigDecimal d -> Optional.of(Value.of(d.toPlainString()));
            case List<?> list ->
                Optional.of(Value.list(list.stream()
                        .map(SigningFacts::value)
                        .flatMap(Optional::stream)
                        .toList()));
            case Map<?, ?> map -> {
                Map<String, Value> fields = new HashMap<>();
                map.forEach((k, v) -> value(v).ifPresent(x -> fields.put(String.valueOf(k), x)));
                yield Optional.of(Value.struct(fields));
            }
            default -> Optional.of(Value.of(json.toString()));
        };
    }

    /** An integer outside the language's range (i128 ∪ u256) reads as its decimal text. */
    private static Optional<Value> integer(BigInteger i) {
        try {
            return Optional.of(Value.of(i));
        } catch (IllegalArgumentException outOfRange) {
            return Optional.of(Value.of(i.toString()));
        }
    }
}
