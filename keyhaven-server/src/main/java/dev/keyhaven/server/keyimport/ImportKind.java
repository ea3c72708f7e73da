package dev.keyhaven.server.keyimport;

/** What an import target is for; a target issued for one kind cannot be used for the other. */
public enum ImportKind {
    WALLET("init_import_wallet"),
    PRIVATE_KEY("init_import_private_key");

    private final String initOperation;

    ImportKind(String initOperation) {
        this.initOperation = initOperation;
    }

    String initOperation() {
        return initOperation;
    }
}
