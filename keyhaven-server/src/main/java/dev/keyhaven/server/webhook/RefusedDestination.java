package dev.keyhaven.server.webhook;

/** Why an attempt must not be made to an endpoint's URL; its message is recorded as the delivery's last error. */
public final class RefusedDestination extends Exception {

    RefusedDestination(String reason) {
        super(reason);
    }
}
