package dev.keyhaven.crypto.eth;

import dev.keyhaven.crypto.Digests;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * The struct definitions of one typed-data payload ({@code types}), with member types resolved on first use and
 * type hashes cached for the duration of one {@link Eip712#hash} call.
 */
final class Eip712Types {
    static final String DOMAIN = "EIP712Domain";
    /** No real payload nests arrays this deep; the cap bounds the work a hostile type string can cause. */
    private static final int MAX_ARRAY_DIMENSIONS = 32;

    /** One member of a struct: its name, its type as declared (used verbatim in encodeType) and that type resolved. */
    record Member(String name, String declaredType, FieldType type) {}

    private record Declared(String name, String type) {}

    private final Map<String, List<Declared>> declared;
    private final Map<String, List<Member>> resolved = new HashMap<>();
    private final Map<String, byte[]> typeHashes = new HashMap<>();

    private Eip712Types(Map<String, List<Declared>> declared) {
        this.declared = declared;
    }

    /**
     * Reads {@code types}. When it has no {@code EIP712Domain} entry, one is inferred from the domain's fields, as
     * viem's {@code getTypesForEIP712Domain} does: name (string), version (string), chainId (uint256),
     * verifyingContract (address) and salt (bytes32), in that order, each only when the domain has a non-null value
     * for it. (viem also drops an empty version and a chainId given as a string; we keep both, as ethers does,
     * because the JSON we receive carries big numbers as strings.)
     */
    static Eip712Types parse(Map<?, ?> types, Map<?, ?> domain) {
        Map<String, List<Declared>> declared = new LinkedHashMap<>();
        for (Map.Entry<?, ?> entry : types.entrySet()) {
            if (!(entry.getKey() instanceof String name)
                    || name.isEmpty()
                    || name.indexOf('[') >= 0
                    || name.indexOf(']') >= 0) {
                throw new InvalidTypedDataException(
                        "types: type name '" + entry.getKey() + "' is not a valid struct name");
            }
            declared.put(name, members(name, entry.getValue()));
        }
        if (!declared.containsKey(DOMAIN)) {
            declared.put(DOMAIN, inferredDomain(domain));
        }
        return new Eip712Types(declared);
    }

    private static List<Declared> members(String struct, Object definition) {
        if (!(definition instanceof List<?> list)) {
            throw new InvalidTypedDataException("types." + struct + ": must be an array of {name, type}");
        }
        List<Declared> members = new ArrayList<>(list.size());
        for (int i = 0; i < list.size(); i++) {
            if (!(list.get(i) instanceof Map<?, ?> member)
                    || !(member.get("name") instanceof String name)
                    || !(member.get("type") instanceof String type)) {
                throw new InvalidTypedDataException("types." + struct + "[" + i + "]: must have string name and type");
            }
            members.add(new Declared(name, type));
        }
        return List.copyOf(members);
    }

    private static List<Declared> inferredDomain(Map<?, ?> domain) {
        List<Declared> members = new ArrayList<>();
        String[][] candidates = {
            {"name", "string"},
            {"version", "string"},
            {"chainId", "uint256"},
            {"verifyingContract", "address"},
            {"salt", "bytes32"},
        };
        for (String[] candidate : candidates) {
            if (domain.get(candidate[0]) != null) {
                members.add(new Declared(candidate[0], candidate[1]));
            }
        }
        return List.copyOf(members);
    }

    boolean isStruct(String name) {
        return declared.containsKey(name);
    }

    /** The members of struct {@code name} with resolved types; throws when a member's type is unknown. */
    List<Member> members(String name) {
        List<Member> members = resolved.get(name);
        if (members == null) {
            List<Declared> declaredMembers = declared.get(name);
            if (declaredMembers == null) {
                throw new InvalidTypedDataException("types: struct '" + name + "' is not defined");
            }
            members = new ArrayList<>(declaredMembers.size());
            for (Declared d : declaredMembers) {
                members.add(new Member(d.name(), d.type(), resolve(d.type(), name + "." + d.name())));
            }
            members = List.copyOf(members);
            resolved.put(name, members);
        }
        return members;
    }

    /** keccak256(encodeType(name)). */
    byte[] typeHash(String name) {
        byte[] hash = typeHashes.get(name);
        if (hash == null) {
            hash = Digests.keccak256(encodeType(name).getBytes(StandardCharsets.UTF_8));
            typeHashes.put(name, hash);
        }
        return hash;
    }

    /**
     * {@code Name(type1 name1,…)} followed by every struct it references, directly or not, sorted by name (Java's
     * {@code String} order is UTF-16 code-unit order, the same as JavaScript's default sort used by viem).
     */
    String encodeType(String primary) {
        TreeSet<String> referenced = new TreeSet<>();
        Deque<String> pending = new ArrayDeque<>();
        pending.push(primary);
        while (!pending.isEmpty()) {
            for (Member member : members(pending.pop())) {
                String struct = structName(member.type());
                if (struct != null && !struct.equals(primary) && referenced.add(struct)) {
                    pending.push(struct);
                }
            }
        }
        StringBuilder out = new StringBuilder();
        append(out, primary);
        for (String struct : referenced) {
            append(out, struct);
        }
        return out.toString();
    }

    private void append(StringBuilder out, String struct) {
        out.append(struct).append('(');
        List<Declared> members = declared.get(struct);
        for (int i = 0; i < members.size(); i++) {
            out.append(i == 0 ? "" : ",")
                    .append(members.get(i).type())
                    .append(' ')
                    .append(members.get(i).name());
        }
        out.append(')');
    }

    private static String structName(FieldType type) {
        FieldType t = type;
        while (t instanceof FieldType.Array array) {
            t = array.element();
        }
        return t instanceof FieldType.Struct struct ? struct.name() : null;
    }

    /** Resolves a declared member type; {@code where} names the member for error messages. */
    private FieldType resolve(String type, String where) {
        int dimensions = 0;
        String base = type;
        List<Integer> lengths = new ArrayList<>();
        while (base.endsWith("]")) {
            int open = base.lastIndexOf('[');
            if (open <= 0 || ++dimensions > MAX_ARRAY_DIMENSIONS) {
                throw unknown(type, where);
            }
            lengths.add(arrayLength(base.substring(open + 1, base.length() - 1), type, where));
            base = base.substring(0, open);
        }
        FieldType element = elementOrStruct(base, type, where);
        // lengths were collected outermost first; build from the innermost dimension out.
        for (int i = lengths.size() - 1; i >= 0; i--) {
            element = new FieldType.Array(element, lengths.get(i));
        }
        return element;
    }

    private FieldType elementOrStruct(String base, String type, String where) {
        FieldType elementary = FieldType.elementary(base);
        if (declared.containsKey(base)) {
            if (elementary != null) {
                throw new InvalidTypedDataException(
                        "types." + where + ": struct name '" + base + "' collides with a Solidity type");
            }
            return new FieldType.Struct(base);
        }
        if (elementary == null) {
            throw unknown(type, where);
        }
        return elementary;
    }

    private static int arrayLength(String digits, String type, String where) {
        if (digits.isEmpty()) {
            return FieldType.Array.DYNAMIC;
        }
        if (digits.length() > 9 || digits.charAt(0) == '0' || !digits.chars().allMatch(c -> c >= '0' && c <= '9')) {
            throw unknown(type, where);
        }
        return Integer.parseInt(digits);
    }

    private static InvalidTypedDataException unknown(String type, String where) {
        return new InvalidTypedDataException("types." + where + ": unknown type '" + type + "'");
    }
}
