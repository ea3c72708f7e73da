package dev.keyhaven.chains.solana;

import dev.keyhaven.chains.TransactionFormatException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import tools.jackson.databind.JsonNode;

/**
 * The accounts of an IDL instruction, flattened: Anchor's composite accounts ({@code "accounts": [...]} inside an
 * account) take their place in order, as a transaction lists them. Each account is known by its own name; where two
 * of an instruction share one (in different groups), both are known by their dotted paths
 * ({@code pool.authority}), so that no name is ambiguous.
 */
final class AccountSlots {
    private AccountSlots() {}

    private record Leaf(List<String> groups, String name, boolean optional) {
        String path() {
            List<String> parts = new ArrayList<>(groups);
            parts.add(name);
            return String.join(".", parts);
        }
    }

    static List<IdlAccountSlot> flatten(JsonNode accounts, String path) {
        List<Leaf> leaves = new ArrayList<>();
        collect(accounts, List.of(), path, leaves);
        Map<String, Integer> uses = new HashMap<>();
        for (Leaf leaf : leaves) {
            uses.merge(leaf.name(), 1, Integer::sum);
        }
        List<IdlAccountSlot> slots = new ArrayList<>(leaves.size());
        Set<String> names = new HashSet<>();
        for (Leaf leaf : leaves) {
            String name = uses.get(leaf.name()) > 1 ? leaf.path() : leaf.name();
            if (!names.add(name)) {
                throw new TransactionFormatException("IDL " + path + ": two accounts have the same name");
            }
            slots.add(new IdlAccountSlot(name, leaf.optional()));
        }
        return slots;
    }

    private static void collect(JsonNode accounts, List<String> groups, String path, List<Leaf> leaves) {
        for (int i = 0; i < accounts.size(); i++) {
            String itemPath = path + "[" + i + "]";
            JsonNode account = IdlJson.object(accounts.get(i), itemPath);
            String name = IdlJson.name(account, itemPath);
            if (account.has("accounts")) {
                List<String> inner = new ArrayList<>(groups);
                inner.add(name);
                collect(IdlJson.array(account, "accounts", itemPath), inner, itemPath + ".accounts", leaves);
            } else {
                leaves.add(new Leaf(groups, name, IdlJson.flag(account, itemPath, "optional", "isOptional")));
            }
        }
    }
}
