package dev.keyhaven.server.activity;

/**
 * How an activity's {@code createdAt}/{@code updatedAt} travel. The interface specification calls them plain
 * strings, so RFC 3339 UTC is the default; the Go and Rust SDKs deserialise them as the {@code {seconds, nanos}}
 * object the real service sends, which {@link #OBJECT} provides.
 */
public enum TimestampStyle {
    STRING,
    OBJECT
}
