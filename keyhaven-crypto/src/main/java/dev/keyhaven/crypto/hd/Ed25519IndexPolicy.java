package dev.keyhaven.crypto.hd;

/**
 * What Keyhaven derives for a non-hardened index on an Ed25519 path. SLIP-0010 defines only hardened Ed25519
 * children, yet Turnkey accepts Ed25519 accounts at paths such as {@code m/44'/501'/0'/0/0} without saying what it
 * derives for them. Keyhaven treats every Ed25519 index as hardened, so {@code m/44'/501'/0'/0} is
 * {@code m/44'/501'/0'/0'}: the only reading that gives a standard key and matches wallet software for the paths
 * Turnkey documents. This is an assumption until checked against Turnkey (addresses.md §2.2, "Non-hardened ed25519
 * segments", and open question 4 in §0/§6); if it turns out wrong, this is the one place to change.
 */
final class Ed25519IndexPolicy {
    private Ed25519IndexPolicy() {}

    /** The index actually used for {@code index} (raw 32-bit) on an Ed25519 path: always the hardened one. */
    static int effectiveIndex(int index) {
        return index | DerivationPath.HARDENED;
    }
}
