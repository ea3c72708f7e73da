package dev.keyhaven.server.testing;

import dev.keyhaven.client.ApiKeyStamper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Where the packaged jar keeps its data for one store kind: a data directory and, for PostgreSQL, a fresh database
 * (dropped on close); the arguments that point {@code serve} there, and the root key pair it generates on first start.
 */
public final class ServedJar implements AutoCloseable {
    private final StoreKind store;
    private final Path dataDirectory;
    private final String databaseUrl;

    private ServedJar(StoreKind store, Path dataDirectory, String databaseUrl) {
        this.store = store;
        this.dataDirectory = dataDirectory;
        this.databaseUrl = databaseUrl;
    }

    public static ServedJar in(StoreKind store, Path dataDirectory) {
        return new ServedJar(
                store, dataDirectory, store == StoreKind.POSTGRES ? store.freshDatabase(dataDirectory) : null);
    }

    /** {@code --data-dir} and, for PostgreSQL, {@code --db-url}: what every command needs to find the data. */
    public List<String> storeArguments() {
        List<String> arguments = new ArrayList<>(List.of("--data-dir", dataDirectory.toString()));
        if (databaseUrl != null) {
            arguments.addAll(List.of("--db-url", databaseUrl));
        }
        return arguments;
    }

    /** The {@link #storeArguments}, {@code --port 0}, then {@code more}. */
    public List<String> serveArguments(String... more) {
        List<String> arguments = storeArguments();
        arguments.addAll(List.of("--port", "0"));
        arguments.addAll(List.of(more));
        return arguments;
    }

    /** The root key pair {@code serve} generated into the empty data directory. */
    public ApiKeyStamper rootStamper() {
        try {
            return ApiKeyStamper.fromPrivateKey(
                    ApiKeyStamper.Curve.P256, Files.readString(dataDirectory.resolve("root-api-key.private")));
        } catch (IOException e) {
            throw new AssertionError("serve did not leave the root key in the data directory", e);
        }
    }

    @Override
    public void close() {
        if (databaseUrl != null) {
            store.drop(databaseUrl);
        }
    }
}
