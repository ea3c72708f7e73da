package dev.keyhaven.server.signing;

import dev.keyhaven.crypto.sign.Signature;
import dev.keyhaven.server.api.Params;
import dev.keyhaven.server.custody.Custody;
import dev.keyhaven.server.custody.KeyHandle;
import java.util.List;

/** The shared parameters of sign_raw_payload and sign_raw_payloads, with the payloads already decoded. */
record SignRequest(String signWith, PayloadEncoding encoding, HashFunction hashFunction, List<Payload> payloads) {

    static SignRequest read(Params p, List<String> payloadTexts, String payloadField, boolean single) {
        return read(p, "signWith", payloadTexts, payloadField, single);
    }

    /** {@code keyField}: {@code signWith}, or V1's {@code privateKeyId}. */
    static SignRequest read(Params p, String keyField, List<String> payloadTexts, String payloadField, boolean single) {
        String signWith = p.requiredString(keyField);
        PayloadEncoding encoding = p.requiredEnum("encoding", PayloadEncoding.class);
        HashFunction hash = p.requiredEnum("hashFunction", HashFunction.class);
        List<Payload> payloads = new java.util.ArrayList<>(payloadTexts.size());
        for (int i = 0; i < payloadTexts.size(); i++) {
            payloads.add(Payload.decode(
                    encoding,
                    payloadTexts.get(i),
                    single ? p.pathOf(payloadField) : p.pathOf(payloadField) + "[" + i + "]"));
        }
        return new SignRequest(signWith, encoding, hash, List.copyOf(payloads));
    }

    /** Signs every payload with one key; a payload the key's curve cannot sign fails the whole activity. */
    List<Signature> sign(Custody custody, KeyHandle key) {
        List<Signable> signables = payloads.stream()
                .map(payload -> Signable.of(key.curve(), encoding, hashFunction, payload))
                .toList();
        return signables.stream()
                .map(signable -> switch (signable) {
                    case Signable.Digest d -> custody.signDigest(key, d.digest());
                    case Signable.Message m -> custody.signEd25519(key, m.message());
                })
                .toList();
    }

    /** {@code v1SignRawPayloadResult}. */
    record WireSignature(String r, String s, String v) {
        static WireSignature of(Signature signature) {
            return new WireSignature(signature.rHex(), signature.sHex(), signature.vHex());
        }
    }
}
