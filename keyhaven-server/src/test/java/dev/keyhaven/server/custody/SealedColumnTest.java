package dev.keyhaven.server.custody;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** The start-up upgrade walks every sealed column of the schema: a new one cannot be forgotten in the list. */
class SealedColumnTest {
    private static final Pattern TABLE = Pattern.compile("CREATE TABLE (\\w+) \\((.*?)\\n\\);", Pattern.DOTALL);
    private static final Pattern SEALED = Pattern.compile("^\\s*(\\w*sealed\\w*)\\s+TEXT", Pattern.MULTILINE);

    @Test
    void theListNamesEverySealedColumnOfTheMigrations() throws IOException {
        Set<String> schema = new TreeSet<>();
        try (Stream<Path> files = Files.list(Path.of("src/main/resources/db/migration"))) {
            for (Path file : files.toList()) {
                Matcher table = TABLE.matcher(Files.readString(file));
                while (table.find()) {
                    Matcher column = SEALED.matcher(table.group(2));
                    while (column.find()) {
                        schema.add(table.group(1) + "." + column.group(1));
                    }
                }
            }
        }
        // The KEK's own check value, carried into kek.check_value by V16 and dropped with its table.
        schema.remove("master_key_check.sealed");
        Set<String> listed = SealedColumn.ALL.stream()
                .map(c -> c.table() + "." + c.column())
                .collect(Collectors.toCollection(TreeSet::new));
        assertThat(listed).isEqualTo(schema).hasSize(9);
    }
}
