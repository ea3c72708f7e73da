package dev.keyhaven.client;

/** Signs a request body and says which header carries the signature. */
@FunctionalInterface
public interface Stamper {

    /** The stamp header for exactly these body bytes. */
    Stamp stamp(byte[] body);

    /** A header name and value. */
    record Stamp(String headerName, String headerValue) {}
}
