package dev.keyhaven.server.privatekey;

import dev.keyhaven.crypto.address.AddressFormat;

/** One address of a private key, in one format. */
public record PrivateKeyAddress(AddressFormat format, String address) {}
