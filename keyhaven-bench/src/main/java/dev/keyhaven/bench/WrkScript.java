package dev.keyhaven.bench;

import dev.keyhaven.client.ApiKeyStamper;
import dev.keyhaven.client.Stamper;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Prints a <a href="https://github.com/wg/wrk">wrk</a> script that sends one stamped query again and again, for
 * measuring a query with a driver written in C ({@code keyhaven-bench/wrk-query.sh}): the Java load driver spends
 * 33–39 µs of the same two cores per request, about as much as the query's own verification.
 *
 * <pre>
 * java -cp keyhaven-bench.jar dev.keyhaven.bench.WrkScript DATA_DIR PATH BODY &gt; query.lua
 * </pre>
 *
 * The request is stamped with the data directory's generated root key ({@code root-api-key.private}); a query's
 * stamp carries no time, so the one stamp stays valid for every repetition, as it does for a real client. wrk counts
 * answers other than 2xx itself ("Non-2xx or 3xx responses"); a script with a {@code response} callback would make it
 * parse every answer into Lua and cost more than the Java driver.
 */
public final class WrkScript {
    private WrkScript() {}

    public static void main(String[] args) throws Exception {
        if (args.length != 3) {
            System.err.println("usage: WrkScript DATA_DIR PATH BODY");
            System.exit(2);
        }
        String privateKey = Files.readString(Path.of(args[0]).resolve("root-api-key.private"))
                .trim();
        String path = args[1];
        String body = args[2];
        try (ApiKeyStamper root = ApiKeyStamper.fromPrivateKey(ApiKeyStamper.Curve.P256, privateKey)) {
            Stamper.Stamp stamp = root.stamp(body.getBytes(StandardCharsets.UTF_8));
            System.out.println("wrk.method = \"POST\"");
            System.out.println("wrk.path = " + lua(path));
            System.out.println("wrk.body = " + lua(body));
            System.out.println("wrk.headers[\"Content-Type\"] = \"application/json\"");
            // The spaces matter: "[[" would open a Lua long string.
            System.out.println("wrk.headers[ " + lua(stamp.headerName()) + " ] = " + lua(stamp.headerValue()));
        }
    }

    /** A Lua long string literal: no escapes inside, and no "]==]" occurs in JSON, paths or base64url. */
    private static String lua(String value) {
        if (value.contains("]==]")) {
            throw new IllegalArgumentException("cannot quote " + value);
        }
        return "[==[" + value + "]==]";
    }
}
