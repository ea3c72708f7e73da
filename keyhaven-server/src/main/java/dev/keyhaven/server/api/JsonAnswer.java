package dev.keyhaven.server.api;

/**
 * A query's answer already serialised as JSON, sent as it is. Queries that remember their answers return these, so
 * that a remembered answer costs no serialisation.
 *
 * @param json the UTF-8 JSON bytes; shared, never modified
 */
public record JsonAnswer(byte[] json) {
    @Override
    public String toString() {
        return "JsonAnswer[" + json.length + " bytes]";
    }
}
