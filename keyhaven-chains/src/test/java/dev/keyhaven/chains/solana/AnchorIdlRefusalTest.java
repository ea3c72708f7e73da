package dev.keyhaven.chains.solana;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.keyhaven.chains.TransactionFormatException;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;

/** IDLs Keyhaven refuses to store, with the path of what is wrong. */
class AnchorIdlRefusalTest {

    private static void assertRefused(String json, String message) {
        assertThatThrownBy(() -> AnchorIdl.parse(json))
                .isInstanceOf(TransactionFormatException.class)
                .hasMessage(message);
    }

    /** An IDL of one instruction {@code go} with {@code args}, and {@code types}. */
    private static String idl(String args, String types) {
        return """
                {"instructions": [{"name": "go", "accounts": [], "args": %s}], "types": %s}
                """.formatted(args, types);
    }

    @Test
    void acceptsAMinimalIdl() {
        AnchorIdl idl = AnchorIdl.parse(idl("[]", "[]"));

        assertThat(idl.instructions()).singleElement().satisfies(instruction -> {
            assertThat(instruction.name()).isEqualTo("go");
            assertThat(instruction.discriminatorHex())
                    .isEqualTo(HexFormat.of().formatHex(AnchorIdlReader.sighash("go")));
        });
    }

    @Test
    void refusesAnIdlWithoutTypesOrInstructions() {
        assertRefused("{\"instructions\": []}", "the IDL: no types");
        assertRefused("{\"types\": []}", "the IDL: no instructions");
        assertRefused("{\"instructions\": {}, \"types\": []}", "IDL instructions: not a JSON array");
    }

    @Test
    void refusesWhatIsNotAJsonObject() {
        assertRefused("[]", "the IDL is not a JSON object");
        assertRefused("", "the IDL is not a JSON object");
        assertRefused("{\"types\": [", "the IDL is not valid JSON at line 1, column 12");
        assertRefused("{\"types\": [], \"types\": []}", "the IDL is not valid JSON at line 1, column 22");
    }

    @Test
    void refusesUnknownTypes() {
        assertRefused(
                idl("[{\"name\": \"a\", \"type\": \"u46\"}]", "[]"),
                "IDL instructions[0].args[0].type: not a type of the Anchor IDL format");
        assertRefused(
                idl("[{\"name\": \"a\", \"type\": {\"vec\": \"u8\", \"option\": \"u8\"}}]", "[]"),
                "IDL instructions[0].args[0].type: not a type of the Anchor IDL format");
        assertRefused(
                idl("[{\"name\": \"a\", \"type\": {\"array\": [\"u8\", -1]}}]", "[]"),
                "IDL instructions[0].args[0].type.array[1]: an array's length is an integer from 0 to 2147483647");
        assertRefused(
                idl("[]", "[{\"name\": \"T\", \"type\": {\"kind\": \"union\"}}]"),
                "IDL types[0].type.kind: not struct, enum, type or alias");
    }

    @Test
    void refusesAReferenceToAnUndefinedType() {
        assertRefused(
                idl("[{\"name\": \"a\", \"type\": {\"vec\": {\"defined\": {\"name\": \"Missing\"}}}}]", "[]"),
                "IDL instructions[0].args[0].type.vec.defined: names a type the IDL does not define");
        String dangling = "[{\"name\": \"T\", \"type\": {\"kind\": \"type\", \"alias\": {\"defined\": \"U\"}}}]";
        assertRefused(
                idl("[{\"name\": \"a\", \"type\": {\"defined\": \"T\"}}]", dangling),
                "IDL types[0].type.alias.defined: names a type the IDL does not define");
    }

    @Test
    void acceptsAnUndefinedNameInATypeNoInstructionUses() {
        String dangling = "[{\"name\": \"T\", \"type\": {\"kind\": \"type\", \"alias\": {\"defined\": \"U\"}}}]";

        assertThat(AnchorIdl.parse(idl("[]", dangling)).type("T"))
                .contains(new IdlTypeDef.AliasDef(new IdlType.Defined("U")));
    }

    @Test
    void refusesRepeatedNames() {
        assertRefused(
                idl("[{\"name\": \"a\", \"type\": \"u8\"}, {\"name\": \"a\", \"type\": \"u8\"}]", "[]"),
                "IDL instructions[0].args[1]: has the name of instructions[0].args[0]");
        String type = "{\"name\": \"T\", \"type\": {\"kind\": \"struct\"}}";
        assertRefused(
                idl("[]", "[" + type + ", " + type + "]"), "IDL types[1]: a type of the same name is already defined");
        assertRefused("""
                {"instructions": [{"name": "go", "accounts": [], "args": []},
                                  {"name": "go", "accounts": [], "args": []}], "types": []}
                """, "IDL instructions[1]: instructions[0] has the same name");
    }

    @Test
    void refusesDiscriminatorsTheSameDataMatches() {
        assertRefused("""
                {"instructions": [{"name": "a", "discriminator": [1, 2], "accounts": [], "args": []},
                                  {"name": "b", "discriminator": [7], "accounts": [], "args": []},
                                  {"name": "c", "discriminator": [1], "accounts": [], "args": []}], "types": []}
                """, "IDL instructions[2] and instructions[0] have discriminators that the same data matches");
        assertRefused("""
                {"instructions": [{"name": "a", "discriminator": [1, 256], "accounts": [], "args": []}],
                 "types": []}
                """, "IDL instructions[0].discriminator[1]: not a byte (0 to 255)");
        assertRefused("""
                {"instructions": [{"name": "a", "discriminator": [], "accounts": [], "args": []}], "types": []}
                """, "IDL instructions[0].discriminator: a discriminator is a list of 1 to 32 bytes");
    }

    @Test
    void refusesDeepNestingAndLongDocuments() {
        String deep = "\"u8\"";
        for (int i = 0; i < 70; i++) {
            deep = "{\"vec\": " + deep + "}";
        }
        assertRefused(
                idl("[{\"name\": \"a\", \"type\": " + deep + "}]", "[]"),
                "the IDL is beyond Keyhaven's JSON limits (nesting 64 levels deep, numbers of 1000 digits)");
        assertRefused(
                " ".repeat(AnchorIdlReader.MAX_LENGTH + 1),
                "the IDL is 1048577 characters; Keyhaven reads IDLs of at most 1048576");
    }

    @Test
    void refusesMalformedAccounts() {
        assertRefused("""
                {"instructions": [{"name": "go", "accounts": [{"name": "a", "isMut": true, "isOptional": "yes"}],
                                   "args": []}], "types": []}
                """, "IDL instructions[0].accounts[0].isOptional: not true or false");
        assertRefused("""
                {"instructions": [{"name": "go", "accounts": [{"signer": true}], "args": []}], "types": []}
                """, "IDL instructions[0].accounts[0]: no name");
    }

    @Test
    void acceptsConstructsItDoesNotDecode() {
        AnchorIdl idl = AnchorIdl.parse("""
                {"instructions": [{"name": "go", "accounts": [], "args": [
                    {"name": "a", "type": {"coption": "u64"}},
                    {"name": "b", "type": {"generic": "T"}},
                    {"name": "c", "type": {"array": ["u8", {"generic": "N"}]}},
                    {"name": "d", "type": {"defined": {"name": "Wrapper",
                                                       "generics": [{"kind": "type", "type": "u8"}]}}},
                    {"name": "e", "type": {"defined": {"name": "Packed"}}}]}],
                 "types": [{"name": "Packed", "serialization": "bytemuck", "repr": {"kind": "c"},
                            "type": {"kind": "struct", "fields": [{"name": "x", "type": "u64"}]}}]}
                """);

        assertThat(idl.instructions().getFirst().args())
                .extracting(IdlField::type)
                .containsExactly(
                        new IdlType.Unsupported("a COption"),
                        new IdlType.Unsupported("a generic type parameter"),
                        new IdlType.Unsupported("an array of generic length"),
                        new IdlType.Unsupported("a generic type"),
                        new IdlType.Defined("Packed"));
        assertThat(idl.type("Packed")).contains(new IdlTypeDef.Undecodable("its values are not stored with Borsh"));
    }

    @Test
    void readsLegacyAccountTypes() {
        AnchorIdl idl = AnchorIdl.parse("""
                {"instructions": [{"name": "go", "accounts": [],
                                   "args": [{"name": "s", "type": {"defined": "State"}}]}],
                 "accounts": [{"name": "State", "type": {"kind": "struct", "fields": [{"name": "n", "type": "u8"}]}}],
                 "types": []}
                """);

        assertThat(idl.type("State"))
                .contains(new IdlTypeDef.StructDef(
                        new IdlFields.Named(List.of(new IdlField("n", IdlType.Primitive.U8)))));
    }
}
