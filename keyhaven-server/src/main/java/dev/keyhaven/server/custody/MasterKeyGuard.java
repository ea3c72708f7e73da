package dev.keyhaven.server.custody;

import dev.keyhaven.crypto.SecretBytes;
import dev.keyhaven.server.tx.Transactor;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Clock;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Finds the KEK at start and proves it is the right one. The database keeps a check value sealed under the KEK it
 * first saw; a different KEK fails to open it and the server refuses to start, instead of sealing new keys under a
 * second KEK next to keys it can no longer open. A KEK is generated only for a database that has never held one.
 */
public final class MasterKeyGuard {
    private static final Logger LOG = LoggerFactory.getLogger(MasterKeyGuard.class);
    private static final String CHECK_ID = "master-key-check";

    private final Transactor transactor;
    private final CustodyRepository repository;
    private final SecureRandom random;
    private final Clock clock;

    public MasterKeyGuard(Transactor transactor, CustodyRepository repository, SecureRandom random, Clock clock) {
        this.transactor = transactor;
        this.repository = repository;
        this.random = random;
        this.clock = clock;
    }

    /**
     * The KEK in {@code file}, generated there when neither the file nor sealed data exist yet.
     *
     * @param explicit whether the operator named the file ({@code --master-key-file}); a named file is never created
     * @throws CustodyException when the file is missing or wrong for this database
     */
    public MasterKey open(Path file, boolean explicit) {
        Optional<SealedSecret> check = transactor.read(repository::masterKeyCheck);
        MasterKey key;
        if (Files.exists(file)) {
            key = MasterKey.load(file);
        } else if (explicit) {
            throw new CustodyException("the master key file " + file + " does not exist");
        } else if (check.isPresent()) {
            throw new CustodyException("this database holds keys sealed under a master key, but " + file
                    + " does not exist; start with --master-key-file pointing at the original key (refusing to "
                    + "create a new one)");
        } else {
            key = MasterKey.generate(file, random);
            LOG.warn(
                    "generated a new master key (KEK) at {}; back it up: without it the wallets and private keys in "
                            + "this database cannot be opened",
                    file);
        }
        verifyOrRecord(key, check);
        return key;
    }

    private void verifyOrRecord(MasterKey key, Optional<SealedSecret> check) {
        KeySealer sealer = new KeySealer(key, random);
        if (check.isEmpty()) {
            try (SecretBytes value = SecretBytes.adopt(randomBytes())) {
                SealedSecret sealed = sealer.seal(SealPurpose.MASTER_KEY_CHECK, CHECK_ID, CHECK_ID, value);
                try {
                    transactor.write(tx -> {
                        repository.insertMasterKeyCheck(tx, sealed, clock.instant());
                        return null;
                    });
                    return;
                } catch (Transactor.ConstraintViolation raced) {
                    // Another process recorded its KEK first; ours must be the same one.
                    check = transactor.read(repository::masterKeyCheck);
                }
            }
        }
        try (SecretBytes _ = sealer.open(SealPurpose.MASTER_KEY_CHECK, CHECK_ID, CHECK_ID, check.orElseThrow())) {
            // It opened: the GCM tag proves this is the KEK the database was sealed with.
        } catch (CustodyException wrongKey) {
            throw new CustodyException("the master key in " + key.file() + " is not the one this database's keys "
                    + "were sealed with; refusing to start");
        }
    }

    private byte[] randomBytes() {
        byte[] bytes = new byte[32];
        random.nextBytes(bytes);
        return bytes;
    }
}
