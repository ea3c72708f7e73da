package dev.keyhaven.crypto.sign;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.security.SecureRandom;
import java.util.Arrays;

/**
 * Recoverable ECDSA signatures on secp256k1 by libsecp256k1 (Bitcoin Core's constant-time library, the one Debian
 * ships as {@code libsecp256k1-1}), called through the foreign-function API. It signs in about a third of
 * BouncyCastle's time (BENCHMARKS.md), with the same RFC 6979 nonce, so the same key and digest give the same
 * signature byte for byte; {@link Secp256k1Signers} checks that on a known answer before it lends an instance out.
 *
 * <p>The calls are {@linkplain Linker.Option#critical critical} with heap access: the secret key is read in place
 * from the array its {@code SecretBytes} lends, so no copy of it is ever made outside the Java heap. One context is
 * created and randomised (against side channels) once; signing only reads it, so threads share it.
 */
@SuppressWarnings("restricted") // the foreign calls are the point of this class; the jar enables native access
final class NativeSecp256k1 {
    /** {@code SECP256K1_CONTEXT_SIGN}: accepted by every release (0.2 and later treat every context alike). */
    private static final int CONTEXT_SIGN = (1 << 0) | (1 << 9);

    private static final Linker LINKER = Linker.nativeLinker();
    private static final Linker.Option HEAP_ACCESS = Linker.Option.critical(true);

    private final String library;
    private final MemorySegment context;
    private final MethodHandle signRecoverable;
    private final MethodHandle serializeCompact;

    private NativeSecp256k1(String library, SymbolLookup symbols) {
        this.library = library;
        MethodHandle create = LINKER.downcallHandle(
                function(symbols, "secp256k1_context_create"),
                FunctionDescriptor.of(ValueLayout.ADDRESS, ValueLayout.JAVA_INT));
        MethodHandle randomize = LINKER.downcallHandle(
                function(symbols, "secp256k1_context_randomize"),
                FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.ADDRESS, ValueLayout.ADDRESS));
        this.signRecoverable = LINKER.downcallHandle(
                function(symbols, "secp256k1_ecdsa_sign_recoverable"),
                FunctionDescriptor.of(
                        ValueLayout.JAVA_INT,
                        ValueLayout.ADDRESS,
                        ValueLayout.ADDRESS,
                        ValueLayout.ADDRESS,
                        ValueLayout.ADDRESS,
                        ValueLayout.ADDRESS,
                        ValueLayout.ADDRESS),
                HEAP_ACCESS);
        this.serializeCompact = LINKER.downcallHandle(
                function(symbols, "secp256k1_ecdsa_recoverable_signature_serialize_compact"),
                FunctionDescriptor.of(
                        ValueLayout.JAVA_INT,
                        ValueLayout.ADDRESS,
                        ValueLayout.ADDRESS,
                        ValueLayout.ADDRESS,
                        ValueLayout.ADDRESS),
                HEAP_ACCESS);
        try {
            this.context = (MemorySegment) create.invokeExact(CONTEXT_SIGN);
            if (context.equals(MemorySegment.NULL)) {
                throw new IllegalStateException(library + " could not create a context");
            }
            byte[] seed = new byte[32];
            new SecureRandom().nextBytes(seed);
            try (Arena arena = Arena.ofConfined()) {
                MemorySegment nativeSeed = arena.allocate(32);
                nativeSeed.copyFrom(MemorySegment.ofArray(seed));
                if ((int) randomize.invokeExact(context, nativeSeed) != 1) {
                    throw new IllegalStateException(library + " could not randomise its context");
                }
                nativeSeed.fill((byte) 0);
            } finally {
                Arrays.fill(seed, (byte) 0);
            }
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable e) {
            throw new IllegalStateException(library + ": " + e, e);
        }
    }

    /**
     * Opens {@code library}, a file name the dynamic linker searches for (such as {@code libsecp256k1.so.1}) or a
     * path.
     *
     * @throws IllegalArgumentException when it cannot be opened or lacks a function (a build without the recovery
     *     module)
     */
    static NativeSecp256k1 open(String library) {
        SymbolLookup symbols;
        try {
            symbols = SymbolLookup.libraryLookup(library, Arena.global());
        } catch (IllegalArgumentException notFound) {
            throw new IllegalArgumentException(library + " cannot be opened", notFound);
        }
        return new NativeSecp256k1(library, symbols);
    }

    private static MemorySegment function(SymbolLookup symbols, String name) {
        return symbols.find(name)
                .orElseThrow(() -> new IllegalArgumentException("the library has no " + name
                        + (name.contains("recoverable") ? " (built without the recovery module)" : "")));
    }

    /** What was opened, as the operator named it or as it was found. */
    String library() {
        return library;
    }

    /**
     * Signs {@code digest32} with the 32-byte big-endian scalar {@code secret32}: RFC 6979 nonce, low-S, and the
     * recovery id of the signature returned.
     *
     * @throws IllegalArgumentException when the scalar is not in [1, n-1], or either array is not 32 bytes
     */
    Signature sign(byte[] secret32, byte[] digest32) {
        // The library reads 32 bytes from each without knowing their length: a shorter array would be read past.
        if (secret32.length != 32 || digest32.length != 32) {
            throw new IllegalArgumentException("libsecp256k1 signs a 32-byte digest with a 32-byte key");
        }
        byte[] opaque = new byte[65];
        byte[] compact = new byte[64];
        int[] recoveryId = new int[1];
        int signed;
        int serialized;
        try {
            signed = (int) signRecoverable.invokeExact(
                    context,
                    MemorySegment.ofArray(opaque),
                    MemorySegment.ofArray(digest32),
                    MemorySegment.ofArray(secret32),
                    MemorySegment.NULL,
                    MemorySegment.NULL);
            serialized = signed == 1
                    ? (int) serializeCompact.invokeExact(
                            context,
                            MemorySegment.ofArray(compact),
                            MemorySegment.ofArray(recoveryId),
                            MemorySegment.ofArray(opaque))
                    : 0;
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable e) {
            throw new IllegalStateException(
                    "libsecp256k1 failed to sign: " + e.getClass().getSimpleName(), e);
        }
        if (signed != 1) {
            // The default nonce function always finds a nonce, so only an invalid key fails.
            throw new IllegalArgumentException("private key is out of range for SECP256K1");
        }
        if (serialized != 1) {
            throw new IllegalStateException("libsecp256k1 could not serialise its signature");
        }
        return new Signature(Arrays.copyOfRange(compact, 0, 32), Arrays.copyOfRange(compact, 32, 64), recoveryId[0]);
    }

    @Override
    public String toString() {
        return "libsecp256k1 (" + library + ")";
    }
}
