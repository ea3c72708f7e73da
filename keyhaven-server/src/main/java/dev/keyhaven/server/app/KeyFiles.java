package dev.keyhaven.server.app;

import dev.keyhaven.crypto.EcCurve;
import dev.keyhaven.crypto.SecretBytes;
import dev.keyhaven.crypto.SigningKey;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.Set;
import java.util.stream.Stream;

/**
 * An API key pair kept as two files, {@code PREFIX.public} and {@code PREFIX.private}, each holding hex and readable
 * only by the owner (the layout of Turnkey's CLI). {@code serve} creates the root user's pair this way on an empty
 * store; {@code request} reads it.
 */
public record KeyFiles(Path publicKeyFile, Path privateKeyFile) {

    /** The root user's key pair in a data directory. */
    public static KeyFiles rootIn(Path dataDirectory) {
        return withPrefix(dataDirectory.resolve("root-api-key"));
    }

    public static KeyFiles withPrefix(Path prefix) {
        return new KeyFiles(Path.of(prefix + ".public"), Path.of(prefix + ".private"));
    }

    public boolean exist() {
        return Files.exists(publicKeyFile) && Files.exists(privateKeyFile);
    }

    /**
     * Generates a P-256 key pair into the two files (0600) and returns the compressed public key in hex. The files
     * and their directory entries are on disk when this returns: the store is about to register the public key, and
     * a crash must not leave it holding a root key whose private half was lost.
     */
    public String generateP256(SecureRandom random) {
        BigInteger order = EcCurve.P256.order();
        byte[] scalar = new byte[32];
        do {
            random.nextBytes(scalar);
        } while (new BigInteger(1, scalar).signum() == 0 || new BigInteger(1, scalar).compareTo(order) >= 0);
        String publicKey;
        try (SigningKey key = SigningKey.ecdsa(EcCurve.P256, SecretBytes.copyOf(scalar))) {
            publicKey = HexFormat.of().formatHex(key.publicKey());
        }
        try {
            writePrivately(privateKeyFile, HexFormat.of().formatHex(scalar));
            writePrivately(publicKeyFile, publicKey);
            Stream.of(privateKeyFile, publicKeyFile)
                    .map(f -> f.toAbsolutePath().getParent())
                    .distinct()
                    .forEach(KeyFiles::syncDirectory);
        } finally {
            java.util.Arrays.fill(scalar, (byte) 0);
        }
        return publicKey;
    }

    public String readPublicKey() {
        return read(publicKeyFile);
    }

    public String readPrivateKey() {
        return read(privateKeyFile);
    }

    private static String read(Path file) {
        try {
            return Files.readString(file, StandardCharsets.US_ASCII).trim();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file, e);
        }
    }

    private static void writePrivately(Path file, String hex) {
        byte[] bytes = (hex + "\n").getBytes(StandardCharsets.US_ASCII);
        try {
            Files.deleteIfExists(file);
            try (FileChannel channel = FileChannel.open(
                    file,
                    Set.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE),
                    PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")))) {
                ByteBuffer buffer = ByteBuffer.wrap(bytes);
                while (buffer.hasRemaining()) {
                    channel.write(buffer);
                }
                channel.force(true);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file, e);
        } finally {
            java.util.Arrays.fill(bytes, (byte) 0);
        }
    }

    /** Makes the creation of the files in {@code directory} durable (POSIX: fsync of the directory itself). */
    private static void syncDirectory(Path directory) {
        try (FileChannel channel = FileChannel.open(directory, StandardOpenOption.READ)) {
            channel.force(true);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot sync directory " + directory, e);
        }
    }
}
