package dev.keyhaven.server.custody;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.Set;
import javax.crypto.spec.SecretKeySpec;

/**
 * The key-encryption key: 32 random bytes kept in a file of its own (hex, one line, readable only by the owner).
 * Everything sealed in the database opens only with it, so losing the file loses the wallets, and a copy of the
 * database alone reveals no key.
 */
public final class MasterKey {
    static final int LENGTH = 32;

    private final SecretKeySpec key;
    private final Path file;

    private MasterKey(byte[] bytes, Path file) {
        this.key = new SecretKeySpec(bytes, "AES");
        Arrays.fill(bytes, (byte) 0);
        this.file = file;
    }

    /** Reads the KEK from {@code file}. */
    public static MasterKey load(Path file) {
        String text;
        try {
            text = Files.readString(file, StandardCharsets.US_ASCII).strip();
        } catch (IOException e) {
            throw new CustodyException("cannot read the master key file " + file + ": " + e.getMessage(), e);
        }
        if (!text.matches("[0-9a-fA-F]{" + 2 * LENGTH + "}")) {
            throw new CustodyException(
                    "the master key file " + file + " must hold " + LENGTH + " bytes as " + 2 * LENGTH + " hex digits");
        }
        return new MasterKey(HexFormat.of().parseHex(text), file);
    }

    /**
     * Generates a fresh KEK into {@code file} (created 0600, never overwritten) and forces it to disk before
     * returning: anything sealed with it afterwards must not outlive the only copy of the key.
     */
    public static MasterKey generate(Path file, SecureRandom random) {
        byte[] bytes = new byte[LENGTH];
        random.nextBytes(bytes);
        byte[] hex = (HexFormat.of().formatHex(bytes) + "\n").getBytes(StandardCharsets.US_ASCII);
        Set<PosixFilePermission> ownerOnly = PosixFilePermissions.fromString("rw-------");
        try (FileChannel channel = FileChannel.open(
                file,
                Set.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE),
                PosixFilePermissions.asFileAttribute(ownerOnly))) {
            channel.write(java.nio.ByteBuffer.wrap(hex));
            channel.force(true);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create the master key file " + file, e);
        } finally {
            Arrays.fill(hex, (byte) 0);
        }
        syncDirectory(file.toAbsolutePath().getParent());
        return new MasterKey(bytes, file);
    }

    SecretKeySpec aesKey() {
        return key;
    }

    public Path file() {
        return file;
    }

    private static void syncDirectory(Path directory) {
        try (FileChannel channel = FileChannel.open(directory, StandardOpenOption.READ)) {
            channel.force(true);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot sync directory " + directory, e);
        }
    }

    @Override
    public String toString() {
        return "MasterKey[" + file + ", redacted]";
    }
}
