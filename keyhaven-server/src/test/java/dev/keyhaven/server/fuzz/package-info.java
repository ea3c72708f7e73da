/**
 * Coverage-guided fuzz targets of the server's parsers (Jazzer; docs/fuzzing.md): the stamp headers and the request
 * envelope. Each class holds one {@code @FuzzTest}, seeded from {@code src/test/resources/fuzz/<target>/}.
 */
package dev.keyhaven.server.fuzz;
