package dev.keyhaven.server.custody;

import dev.keyhaven.server.tx.Transactor;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Finds a file KEK at start. A KEK is generated only for a database that has never recorded one; a named file, or a
 * database that already has a KEK, is never given a new one. Whether the KEK found is the database's is checked next,
 * by {@link DataKeys#open}.
 */
public final class MasterKeyGuard {
    private static final Logger LOG = LoggerFactory.getLogger(MasterKeyGuard.class);

    private final Transactor transactor;
    private final DataKeyRepository repository;
    private final SecureRandom random;

    public MasterKeyGuard(Transactor transactor, DataKeyRepository repository, SecureRandom random) {
        this.transactor = transactor;
        this.repository = repository;
        this.random = random;
    }

    /**
     * The KEK in {@code file}, generated there when neither the file nor a recorded KEK exist yet.
     *
     * @param explicit whether the operator named the file ({@code --master-key-file}); a named file is never created
     * @throws CustodyException when the file is missing
     */
    public MasterKey open(Path file, boolean explicit) {
        if (Files.exists(file)) {
            return MasterKey.load(file);
        }
        if (explicit) {
            throw new CustodyException("the master key file " + file + " does not exist");
        }
        if (transactor.read(repository::kek).isPresent()) {
            throw new CustodyException("this database holds keys sealed under a master key, but " + file
                    + " does not exist; start with --master-key-file pointing at the original key (refusing to "
                    + "create a new one)");
        }
        MasterKey key = MasterKey.generate(file, random);
        LOG.warn(
                "generated a new master key (KEK) at {}; back it up: without it the wallets and private keys in "
                        + "this database cannot be opened",
                file);
        return key;
    }
}
