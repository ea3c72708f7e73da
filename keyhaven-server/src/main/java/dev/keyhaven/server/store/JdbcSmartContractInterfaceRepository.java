package dev.keyhaven.server.store;

import dev.keyhaven.server.smartcontract.SmartContractInterface;
import dev.keyhaven.server.smartcontract.SmartContractInterfaceRepository;
import dev.keyhaven.server.smartcontract.SmartContractInterfaceType;
import dev.keyhaven.server.tx.Tx;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import java.util.Optional;

/** Smart-contract interfaces ({@code smart_contract_interfaces}, V12). */
public final class JdbcSmartContractInterfaceRepository implements SmartContractInterfaceRepository {
    private static final String COLUMNS =
            "id, organization_id, type, address, address_key, document, label, notes, " + "created_at, updated_at";

    @Override
    public void insert(Tx tx, SmartContractInterface c) {
        Sql.update(
                tx,
                "INSERT INTO smart_contract_interfaces (" + COLUMNS + ") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                c.id(),
                c.organizationId(),
                c.type().wireName(),
                c.address(),
                c.addressKey(),
                c.document(),
                c.label(),
                c.notes(),
                c.createdAt(),
                c.updatedAt());
    }

    @Override
    public void delete(Tx tx, String organizationId, String id) {
        Sql.update(
                tx, "DELETE FROM smart_contract_interfaces WHERE organization_id = ? AND id = ?", organizationId, id);
    }

    @Override
    public Optional<SmartContractInterface> find(Tx tx, String organizationId, String id) {
        return Sql.one(
                tx,
                "SELECT " + COLUMNS + " FROM smart_contract_interfaces WHERE organization_id = ? AND id = ?",
                JdbcSmartContractInterfaceRepository::row,
                organizationId,
                id);
    }

    @Override
    public Optional<SmartContractInterface> findByAddress(
            Tx tx, String organizationId, SmartContractInterfaceType type, String addressKey) {
        return Sql.one(
                tx,
                "SELECT " + COLUMNS + " FROM smart_contract_interfaces WHERE organization_id = ? AND "
                        + "type = ? AND address_key = ?",
                JdbcSmartContractInterfaceRepository::row,
                organizationId,
                type.wireName(),
                addressKey);
    }

    @Override
    public List<SmartContractInterface> list(Tx tx, String organizationId) {
        return Sql.list(
                tx,
                "SELECT " + COLUMNS + " FROM smart_contract_interfaces WHERE organization_id = ? " + "ORDER BY id",
                JdbcSmartContractInterfaceRepository::row,
                organizationId);
    }

    private static SmartContractInterface row(ResultSet rs) throws SQLException {
        return new SmartContractInterface(
                rs.getString("id"),
                rs.getString("organization_id"),
                SmartContractInterfaceType.valueOf(rs.getString("type")),
                rs.getString("address"),
                rs.getString("address_key"),
                rs.getString("document"),
                rs.getString("label"),
                rs.getString("notes"),
                Sql.instant(rs, "created_at"),
                Sql.instant(rs, "updated_at"));
    }
}
