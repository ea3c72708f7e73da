package dev.keyhaven.server.policy;

import static dev.keyhaven.server.testing.ApiErrors.isError;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.keyhaven.server.api.ApiException;
import dev.keyhaven.server.api.ErrorCode;
import dev.keyhaven.server.api.JsonMappers;
import dev.keyhaven.server.api.Params;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * create_policy V1/V2: the exact condition each translatable selector becomes, and the 400 (with the selector's
 * field) for every one that has no single reading.
 */
class PolicySelectorsTest {

    private static Params params(String json) {
        return Params.of(JsonMappers.strict().readTree(json.replace('`', '"')), "parameters");
    }

    private static String v2(String selectors) {
        return "{`policyName`:`p`,`effect`:`EFFECT_DENY`,`selectors`:[" + selectors + "]}";
    }

    private static String v2Condition(String selectors) {
        return PolicySelectors.readV2(params(v2(selectors))).condition();
    }

    private static String v1Condition(String subject, String operator, String target) {
        return PolicySelectors.readV1(params("{`policyName`:`p`,`effect`:`EFFECT_ALLOW`,`selectors`:[{`subject`:`"
                        + subject + "`,`operator`:`" + operator + "`,`target`:`" + target + "`}]}"))
                .condition();
    }

    private static void refusedV2(String selectors, String field) {
        assertThatThrownBy(() -> PolicySelectors.readV2(params(v2(selectors))))
                .isInstanceOfSatisfying(ApiException.class, isError(ErrorCode.BAD_REQUEST, field));
    }

    private static void refusedV1(String subject, String operator, String target, String field) {
        assertThatThrownBy(() -> v1Condition(subject, operator, target))
                .isInstanceOfSatisfying(ApiException.class, isError(ErrorCode.BAD_REQUEST, field));
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "activity.type|OPERATOR_EQUAL|ACTIVITY_TYPE_SIGN|activity.type == 'ACTIVITY_TYPE_SIGN'",
                "activity.type|OPERATOR_NOT_EQUAL|ACTIVITY_TYPE_SIGN|activity.type != 'ACTIVITY_TYPE_SIGN'",
                "activity.params.otp_length|OPERATOR_MORE_THAN|6|activity.params.otp_length > 6",
                "activity.params.otp_length|OPERATOR_MORE_THAN_OR_EQUAL|6|activity.params.otp_length >= 6",
                "activity.params.otp_length|OPERATOR_LESS_THAN|9|activity.params.otp_length < 9",
                "activity.params.otp_length|OPERATOR_LESS_THAN_OR_EQUAL|0|activity.params.otp_length <= 0",
                "activity.params.otp_length|OPERATOR_EQUAL|8|activity.params.otp_length == 8",
                "wallet.imported|OPERATOR_EQUAL|true|wallet.imported == true",
                "wallet.exported|OPERATOR_NOT_EQUAL|false|wallet.exported != false",
                "private_key.tags|OPERATOR_CONTAINS|cold|private_key.tags.contains('cold')",
            })
    void v1TranslatesEachSingleTargetOperatorExactly(String subject, String operator, String target, String condition) {
        assertThat(v1Condition(subject, operator, target)).isEqualTo(condition);
        // V2 with one target says the same.
        assertThat(v2Condition(
                        "{`subject`:`" + subject + "`,`operator`:`" + operator + "`,`targets`:[`" + target + "`]}"))
                .isEqualTo(condition);
    }

    @Test
    void v2TranslatesTheListOperatorsExactly() {
        assertThat(v2Condition("{`subject`:`activity.type`,`operator`:`OPERATOR_IN`,`targets`:[`A`,`B`]}"))
                .isEqualTo("activity.type in ['A', 'B']");
        assertThat(v2Condition("{`subject`:`activity.type`,`operator`:`OPERATOR_NOT_IN`,`targets`:[`A`]}"))
                .isEqualTo("!(activity.type in ['A'])");
        assertThat(v2Condition("{`subject`:`activity.params.otp_length`,`operator`:`OPERATOR_IN`,`targets`:[`6`,`8`]}"))
                .isEqualTo("activity.params.otp_length in [6, 8]");
        assertThat(v2Condition("{`subject`:`private_key.tags`,`operator`:`OPERATOR_CONTAINS_ONE`,`targets`:[`a`,`b`]}"))
                .isEqualTo("(private_key.tags.contains('a') || private_key.tags.contains('b'))");
        assertThat(v2Condition("{`subject`:`private_key.tags`,`operator`:`OPERATOR_CONTAINS_ONE`,`targets`:[`a`]}"))
                .isEqualTo("private_key.tags.contains('a')");
        assertThat(
                        v2Condition(
                                "{`subject`:`activity.params.user_ids`,`operator`:`OPERATOR_CONTAINS_ALL`,`targets`:[`u1`,`u2`]}"))
                .isEqualTo("activity.params.user_ids.contains('u1') && activity.params.user_ids.contains('u2')");
    }

    @Test
    void selectorsAreAndedAndTheResultIsADenyWithoutConsensus() {
        PolicyDraft draft = PolicySelectors.readV2(params(
                v2("{`subject`:`activity.params.user_ids`,`operator`:`OPERATOR_CONTAINS_ONE`,`targets`:[`a`,`b`]},"
                        + "{`subject`:`activity.type`,`operator`:`OPERATOR_EQUAL`,`targets`:[`T`]}")));
        assertThat(draft.condition())
                .isEqualTo("(activity.params.user_ids.contains('a') || activity.params.user_ids.contains('b'))"
                        + " && activity.type == 'T'");
        assertThat(draft.consensus()).isEmpty();
        assertThat(draft.effect()).isEqualTo(PolicyEffect.DENY);
        assertThat(draft.time()).isEmpty();
        assertThat(draft.name()).isEqualTo("p");
    }

    @Test
    void stringTargetsAreEscapedSoTheyStayOneLiteral() {
        assertThat(v2Condition(
                        "{`subject`:`wallet.label`,`operator`:`OPERATOR_EQUAL`,`targets`:[`a' || true || '\\\\`]}"))
                .isEqualTo("wallet.label == 'a\\' || true || \\'\\\\'");
    }

    @Test
    void subjectsOutsideTheVocabularyOrOfUntranslatableShapesAreRefused() {
        String at = "parameters.selectors[0].subject";
        refusedV1("activity.nonsense", "OPERATOR_EQUAL", "x", at);
        refusedV1("nonsense", "OPERATOR_EQUAL", "x", at);
        refusedV1("activity.type.length", "OPERATOR_EQUAL", "x", at);
        refusedV1("activity.type == 'x' || true", "OPERATOR_EQUAL", "x", at);
        refusedV1("approvers[0].id", "OPERATOR_EQUAL", "x", at);
        refusedV1("Activity.Type", "OPERATOR_EQUAL", "x", at);
        refusedV1("activity", "OPERATOR_EQUAL", "x", at); // a struct
        refusedV1("approvers", "OPERATOR_CONTAINS", "x", at); // a list of structs
        refusedV1("time.now", "OPERATOR_MORE_THAN", "2026-01-01T00:00:00Z", at); // a timestamp
        refusedV1("eth.eip_712.message", "OPERATOR_EQUAL", "x", at); // any
        refusedV1("", "OPERATOR_EQUAL", "x", at);
    }

    @Test
    void operatorsWithoutOneReadingForTheSubjectAreRefused() {
        String at = "parameters.selectors[0].operator";
        refusedV1("activity.type", "OPERATOR_MORE_THAN", "A", at);
        refusedV1("activity.type", "OPERATOR_CONTAINS", "SIGN", at);
        refusedV1("wallet.imported", "OPERATOR_LESS_THAN", "true", at);
        refusedV2("{`subject`:`activity.type`,`operator`:`OPERATOR_CONTAINS_ONE`,`targets`:[`A`]}", at);
        refusedV2("{`subject`:`activity.type`,`operator`:`OPERATOR_CONTAINS_ALL`,`targets`:[`A`]}", at);
        refusedV2("{`subject`:`private_key.tags`,`operator`:`OPERATOR_EQUAL`,`targets`:[`A`]}", at);
        refusedV2("{`subject`:`private_key.tags`,`operator`:`OPERATOR_IN`,`targets`:[`A`]}", at);
        refusedV2("{`subject`:`private_key.tags`,`operator`:`OPERATOR_MORE_THAN`,`targets`:[`A`]}", at);
        refusedV1("activity.type", "OPERATOR_LIKE", "A", at);
    }

    @Test
    void targetsThatCannotBeTypedExactlyAreRefused() {
        refusedV1("activity.params.otp_length", "OPERATOR_MORE_THAN", "6.0", "parameters.selectors[0].target");
        refusedV1("activity.params.otp_length", "OPERATOR_MORE_THAN", "-1", "parameters.selectors[0].target");
        refusedV1("activity.params.otp_length", "OPERATOR_EQUAL", "06", "parameters.selectors[0].target");
        refusedV1("activity.params.otp_length", "OPERATOR_EQUAL", " 6", "parameters.selectors[0].target");
        refusedV1("wallet.imported", "OPERATOR_EQUAL", "TRUE", "parameters.selectors[0].target");
        refusedV2(
                "{`subject`:`activity.params.otp_length`,`operator`:`OPERATOR_IN`,`targets`:[`6`,`x`]}",
                "parameters.selectors[0].targets[1]");
        // One value for a single-target operator, at least one for a list operator.
        refusedV2(
                "{`subject`:`activity.type`,`operator`:`OPERATOR_EQUAL`,`targets`:[`A`,`B`]}",
                "parameters.selectors[0].targets");
        refusedV2(
                "{`subject`:`activity.type`,`operator`:`OPERATOR_IN`,`targets`:[]}", "parameters.selectors[0].targets");
        // V1's one target is not read as a list for the list operators.
        refusedV1("activity.type", "OPERATOR_IN", "A,B", "parameters.selectors[0].target");
        refusedV1("activity.type", "OPERATOR_NOT_IN", "A", "parameters.selectors[0].target");
        refusedV1("private_key.tags", "OPERATOR_CONTAINS_ALL", "a", "parameters.selectors[0].target");
        refusedV1("private_key.tags", "OPERATOR_CONTAINS_ONE", "a", "parameters.selectors[0].target");
    }

    @Test
    void theFieldsOfTheOtherVersionAndAnEmptyPolicyAreRefused() {
        refusedV2(
                "{`subject`:`activity.type`,`operator`:`OPERATOR_EQUAL`,`target`:`A`,`targets`:[`A`]}",
                "parameters.selectors[0].target");
        assertThatThrownBy(() -> PolicySelectors.readV1(params("{`policyName`:`p`,`effect`:`EFFECT_ALLOW`,`selectors`:"
                        + "[{`subject`:`activity.type`,`operator`:`OPERATOR_EQUAL`,`targets`:[`A`]}]}")))
                .isInstanceOfSatisfying(
                        ApiException.class, isError(ErrorCode.BAD_REQUEST, "parameters.selectors[0].targets"));
        refusedV2("", "parameters.selectors");
        refusedV2(
                "{`subject`:`activity.type`,`operator`:`OPERATOR_EQUAL`,`targets`:[`A`]},{`subject`:`x`,"
                        + "`operator`:`OPERATOR_EQUAL`,`targets`:[`A`]}",
                "parameters.selectors[1].subject");
        assertThatThrownBy(() ->
                        PolicySelectors.readV2(params("{`policyName`:` `,`effect`:`EFFECT_ALLOW`,`selectors`:[]}")))
                .isInstanceOfSatisfying(ApiException.class, isError(ErrorCode.BAD_REQUEST, "parameters.policyName"));
        assertThatThrownBy(() -> PolicySelectors.readV2(params("{`policyName`:`p`,`effect`:`EFFECT_ALLOW`}")))
                .isInstanceOfSatisfying(ApiException.class, isError(ErrorCode.BAD_REQUEST, "parameters.selectors"));
    }

    @Test
    void everyTranslationPassesTheV3Check() {
        // readV2 already runs PolicyCompiler.check; this states it for a condition built from every list operator.
        String condition = v2Condition("{`subject`:`activity.type`,`operator`:`OPERATOR_NOT_IN`,`targets`:[`A`,`B`]},"
                + "{`subject`:`private_key.tags`,`operator`:`OPERATOR_CONTAINS_ALL`,`targets`:[`x`]}");
        PolicyCompiler.check("condition", "condition", condition);
        assertThat(condition).isEqualTo("!(activity.type in ['A', 'B']) && private_key.tags.contains('x')");
    }
}
