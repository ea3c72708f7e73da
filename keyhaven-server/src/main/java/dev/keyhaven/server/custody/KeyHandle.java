package dev.keyhaven.server.custody;

import dev.keyhaven.crypto.KeyCurve;

/**
 * Everything needed to use one stored private key without holding it: which curve, and the sealed bytes with the
 * organization, resource and purpose they were sealed for.
 */
public record KeyHandle(
        KeyCurve curve, SealPurpose purpose, String organizationId, String resourceId, SealedSecret sealed) {}
