package dev.keyhaven.server.custody;

/** How a recorded KEK locator reads in a message to the operator. */
final class KekDescriptions {
    private KekDescriptions() {}

    static String describe(String locatorUri) {
        try {
            return KekLocator.parse(locatorUri).toString();
        } catch (CustodyException unreadable) {
            return "recorded as '" + locatorUri + "'";
        }
    }
}
