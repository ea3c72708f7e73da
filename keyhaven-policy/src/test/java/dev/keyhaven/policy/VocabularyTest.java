package dev.keyhaven.policy;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class VocabularyTest {
    private static final ValueType TX = ValueType.struct(Map.of(
            "value",
            ValueType.INT,
            "to",
            ValueType.STRING,
            "data",
            ValueType.STRING,
            "contract_call_args",
            ValueType.mapOf(ValueType.ANY),
            "calls",
            ValueType.listOf(ValueType.struct(Map.of("to", ValueType.STRING)))));
    private static final Vocabulary VOCABULARY = Vocabulary.of(Map.of(
            "activity",
                    ValueType.struct(Map.of(
                            "type",
                            ValueType.STRING,
                            "params",
                            ValueType.struct(Map.of("user_ids", ValueType.listOf(ValueType.STRING))))),
            "eth", ValueType.struct(Map.of("tx", TX, "eip_712", ValueType.struct(Map.of("message", ValueType.ANY)))),
            "approvers",
                    ValueType.listOf(ValueType.struct(
                            Map.of("id", ValueType.STRING, "tags", ValueType.listOf(ValueType.STRING)))),
            "time", ValueType.struct(Map.of("now", ValueType.TIMESTAMP))));

    private static List<String> problems(String source) {
        return VOCABULARY.check(PolicyExpression.parse(source)).stream()
                .map(Vocabulary.Problem::toString)
                .toList();
    }

    @Test
    void acceptsWhatTheVocabularyBinds() {
        assertThat(problems("eth.tx.value >= 1000000000000000000 && eth.tx.to == '0xabc'"))
                .isEmpty();
        assertThat(problems("eth.tx.data[0..10] == '0xa9059cbb'")).isEmpty();
        assertThat(problems("eth.tx.contract_call_args['wad'] < 5 && eth.tx.contract_call_args.dst == 'x'"))
                .isEmpty();
        assertThat(problems("eth.tx.calls.all(c, c.to == 'x') && eth.tx.calls[0]['to'] == 'x'"))
                .isEmpty();
        assertThat(problems("eth.eip_712.message['permitted'].all(p, p['token'] == 'x')"))
                .isEmpty();
        assertThat(problems("approvers.filter(u, u.tags.contains('t')).count() >= 2"))
                .isEmpty();
        assertThat(problems("activity.params.user_ids.count == 1 && 'u' in activity.params.user_ids"))
                .isEmpty();
        assertThat(problems("CronSpan('0 9 * * 1', '8h', 'UTC') && time.now < Timestamp('2030-01-01T00:00:00Z')"))
                .isEmpty();
    }

    @Test
    void namesAnUnknownKeywordOrFieldWithItsColumn() {
        assertThat(problems("wallet.id == 'w'")).containsExactly("unknown keyword 'wallet' at column 1");
        assertThat(problems("eth.tx.valu >= 1")).containsExactly("'eth.tx' has no field 'valu' at column 8");
        assertThat(problems("eth.tx.calls.any(c, c.too == 'x')"))
                .containsExactly("'c' has no field 'too' at column 23");
        assertThat(problems("eth.tx['valu'] == 1")).containsExactly("'eth.tx' has no field 'valu' at column 7");
        assertThat(problems("approvers[0].idd == 'u' || solana.tx.fee > 1"))
                .containsExactly(
                        "'approvers[0]' has no field 'idd' at column 14", "unknown keyword 'solana' at column 28");
    }

    @Test
    void refusesWhatCanNeverWorkOnTheDeclaredShapes() {
        assertThat(problems("activity.type == 5")).containsExactly("cannot compare string == int at column 15");
        assertThat(problems("eth.tx.value > '1'"))
                .containsExactly("'>' orders ints and timestamps, not a string " + "at column 14");
        assertThat(problems("activity.type.name == 'x'"))
                .containsExactly("cannot read field 'name' of 'activity.type', a string at column 15");
        assertThat(problems("eth.tx.to.all(c, c == 'x')"))
                .containsExactly("'all' needs a list, and 'eth.tx.to' is a string at column 11");
        assertThat(problems("eth.tx.value in eth.tx.to"))
                .containsExactly("'in' needs a list on its right, not a string at column 14");
        assertThat(problems("eth.tx.value")).containsExactly("'eth.tx.value' is an int, not a bool at column 8");
        assertThat(problems("eth.tx.calls['x'] == 1"))
                .containsExactly("an index must be an int, and ''x'' is a string at column 14");
        assertThat(problems("time.now > Timestamp('2030-13-01T00:00:00Z')"))
                .singleElement()
                .asString()
                .startsWith("invalid Timestamp('2030-13-01T00:00:00Z'): ");
    }

    @Test
    void doesNotLookInsideValuesWhoseShapeIsData() {
        assertThat(problems("eth.eip_712.message.anything.at.all == 1")).isEmpty();
        assertThat(problems("eth.tx.contract_call_args['calls'].all(call, call[0] == 'x')"))
                .isEmpty();
    }

    @Test
    void valuesMatchTheirDeclaredTypeOrSayWhereTheyDoNot() {
        ValueType tx = VOCABULARY.keyword("eth").orElseThrow();
        Value good = Value.struct(Map.of(
                "tx",
                Value.struct(Map.of(
                        "value",
                        Value.of(1),
                        "to",
                        Value.of("0x"),
                        "calls",
                        Value.list(Value.struct(Map.of("to", Value.of("a")))),
                        "contract_call_args",
                        Value.unreadable("no ABI")))));
        assertThat(tx.mismatch(good)).isEmpty();
        Value extra = Value.struct(Map.of("tx", Value.struct(Map.of("fee", Value.of(1)))));
        assertThat(tx.mismatch(extra)).hasValue(".tx.fee: not declared");
        Value wrong = Value.struct(Map.of(
                "tx", Value.struct(Map.of("calls", Value.list(Value.struct(Map.of("to", Value.of(3))))))));
        assertThat(tx.mismatch(wrong)).hasValue(".tx.calls[0].to: an int is not a string");
    }
}
