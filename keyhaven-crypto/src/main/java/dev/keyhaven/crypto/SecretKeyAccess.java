package dev.keyhaven.crypto;

/**
 * The token {@link SecretBytes#apply} asks for, like Tink's {@code InsecureSecretKeyAccess}: whoever passes it reads
 * key material. {@link #get()} is public, as Tink's is; who may call it is a build rule ({@code ArchitectureTest}
 * allows {@code dev.keyhaven.crypto} and the server's {@code custody} only), so a use anywhere else fails the build
 * instead of passing review unnoticed.
 */
public final class SecretKeyAccess {
    private static final SecretKeyAccess INSTANCE = new SecretKeyAccess();

    private SecretKeyAccess() {}

    /** The token; only the packages allowed to see key bytes may call this. */
    public static SecretKeyAccess get() {
        return INSTANCE;
    }

    @Override
    public String toString() {
        return "SecretKeyAccess";
    }
}
