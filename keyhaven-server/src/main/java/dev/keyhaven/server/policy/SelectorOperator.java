package dev.keyhaven.server.policy;

import dev.keyhaven.server.api.WireEnum;

/** {@code v1Operator}: how a V1/V2 {@code create_policy} selector compares its subject with its target(s). */
enum SelectorOperator implements WireEnum {
    EQUAL("=="),
    MORE_THAN(">"),
    MORE_THAN_OR_EQUAL(">="),
    LESS_THAN("<"),
    LESS_THAN_OR_EQUAL("<="),
    CONTAINS(""),
    NOT_EQUAL("!="),
    IN("in"),
    NOT_IN(""),
    CONTAINS_ONE(""),
    CONTAINS_ALL("");

    /** The policy language's comparison, where the operator is one. */
    final String symbol;

    SelectorOperator(String symbol) {
        this.symbol = symbol;
    }

    String wire() {
        return wireName();
    }

    @Override
    public String wireName() {
        return "OPERATOR_" + name();
    }
}
