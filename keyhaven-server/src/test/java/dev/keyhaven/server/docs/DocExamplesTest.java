package dev.keyhaven.server.docs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.keyhaven.server.docs.DocExamples.Block;
import dev.keyhaven.server.docs.DocExamples.Kind;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class DocExamplesTest {

    @Test
    void runnableLanguagesRunAndOtherBlocksNeedAMarker() {
        List<Block> blocks = DocExamples.parse("page.md", """
                Text.

                ```ts
                console.log(1);
                ```

                ```java
                void main() {}
                ```

                ```sh
                echo hi
                ```

                ```json
                {}
                ```

                ```
                plain output
                ```
                """);

        assertThat(blocks)
                .extracting(Block::kind)
                .containsExactly(Kind.TYPESCRIPT, Kind.JAVA, Kind.SHELL, Kind.UNMARKED, Kind.UNMARKED);
        assertThat(blocks)
                .extracting(Block::where)
                .containsExactly("page.md:3", "page.md:7", "page.md:11", "page.md:15", "page.md:19");
        assertThat(blocks.getFirst().text()).isEqualTo("console.log(1);\n");
    }

    @Test
    void markersAboveTheFenceAreRead() {
        List<Block> blocks = DocExamples.parse("page.md", """
                <!-- not run: output -->
                ```
                out
                ```

                <!-- expect: hello -->

                <!-- expect: world -->
                ```sh
                echo hello world
                ```

                <!-- not run: a synopsis -->
                ```sh
                keyhaven [--option]
                ```
                <!-- expect: stale -->
                Some prose between the comment and the fence.
                ```ts
                x
                ```
                """);

        assertThat(blocks.get(0).kind()).isEqualTo(Kind.NOT_RUN);
        assertThat(blocks.get(0).notRunReason()).contains("output");
        assertThat(blocks.get(1).kind()).isEqualTo(Kind.SHELL);
        assertThat(blocks.get(1).expectations()).containsExactly("hello", "world");
        assertThat(blocks.get(2).kind())
                .as("a runnable language may be exempted")
                .isEqualTo(Kind.NOT_RUN);
        assertThat(blocks.get(3).expectations())
                .as("a comment separated from the fence by prose")
                .isEmpty();
        assertThat(blocks.get(3).notRunReason()).isEqualTo(Optional.empty());
    }

    @Test
    void anIndentedBlockLosesItsIndentation() {
        List<Block> blocks = DocExamples.parse("page.md", """
                - a list item:

                  <!-- not run: configuration -->
                  ```json
                  {"a": 1}
                  ```
                """);

        assertThat(blocks).singleElement().satisfies(b -> {
            assertThat(b.kind()).isEqualTo(Kind.NOT_RUN);
            assertThat(b.language()).isEqualTo("json");
            assertThat(b.text()).isEqualTo("{\"a\": 1}\n");
        });
    }

    @Test
    void anUnclosedBlockIsRefusedWithItsPlace() {
        assertThatThrownBy(() -> DocExamples.parse("page.md", "intro\n```ts\nnever closed\n"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("page.md:2: a code block that is never closed");
    }
}
