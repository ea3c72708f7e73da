package dev.keyhaven.bench;

/** A request ready to send: path, exact body bytes and the stamp over them. */
record PreparedRequest(String path, byte[] body, String stampHeader, String stampValue) {}
