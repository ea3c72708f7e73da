package dev.keyhaven.server.testing;

import dev.keyhaven.server.store.Database;
import java.nio.file.Path;

/**
 * A migrated database of one store, made for one test and gone after it: closing it closes the pool and drops the
 * PostgreSQL database (a SQLite file goes with the test's directory).
 */
public record FreshDatabase(StoreKind store, String url, Database database) implements AutoCloseable {

    public static FreshDatabase open(StoreKind store, Path directory) {
        String url = store.freshDatabase(directory);
        return new FreshDatabase(store, url, Database.open(url, 4, null));
    }

    @Override
    public void close() {
        try {
            database.close();
        } finally {
            store.drop(url);
        }
    }
}
