package dev.keyhaven.server.docs;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The fenced code blocks of a Markdown page, and how each is to be checked. The convention (docs/README.md states it
 * for contributors):
 *
 * <ul>
 * <li>a {@code ts}, {@code java} or {@code sh} block is an example that runs: {@link DocsExamplesIT} runs it against
 * a freshly started jar;</li>
 * <li>any other block (output, configuration, a command for contributors) is preceded by
 * {@code <!-- not run: reason -->}, which may also exempt a block of a runnable language;</li>
 * <li>{@code <!-- expect: text -->} before a runnable block names text its output must contain.</li>
 * </ul>
 *
 * A block that is neither runnable nor marked is {@link Kind#UNMARKED}: the build fails on it, so no example is
 * silently left out.
 */
final class DocExamples {
    private static final Pattern FENCE = Pattern.compile("^(\\s*)(`{3,})\\s*([A-Za-z0-9_+-]*)\\s*$");
    private static final Pattern NOT_RUN = Pattern.compile("^\\s*<!--\\s*not run:\\s*(\\S.*?)\\s*-->\\s*$");
    private static final Pattern EXPECT = Pattern.compile("^\\s*<!--\\s*expect:\\s*(\\S.*?)\\s*-->\\s*$");
    private static final Pattern COMMENT = Pattern.compile("^\\s*<!--.*-->\\s*$");

    private DocExamples() {}

    /** How a block is checked. */
    enum Kind {
        TYPESCRIPT,
        JAVA,
        SHELL,
        NOT_RUN,
        UNMARKED
    }

    /**
     * One fenced block: where it is ({@code page:line} of its opening fence), its info string, its text (without the
     * fence's indentation), and what the comments right above it say.
     */
    record Block(
            String page,
            int line,
            String language,
            String text,
            Kind kind,
            Optional<String> notRunReason,
            List<String> expectations) {

        String where() {
            return page + ":" + line;
        }
    }

    static List<Block> read(Path page, String name) {
        try {
            return parse(name, Files.readString(page, StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static List<Block> parse(String page, String markdown) {
        List<String> lines = markdown.lines().toList();
        List<Block> blocks = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            Matcher open = FENCE.matcher(lines.get(i));
            if (!open.matches()) {
                continue;
            }
            String indent = open.group(1);
            String fence = open.group(2);
            String language = open.group(3);
            int start = i;
            StringBuilder text = new StringBuilder();
            for (i++; i < lines.size(); i++) {
                String line = lines.get(i);
                if (line.strip().equals(fence)) {
                    break;
                }
                text.append(line.startsWith(indent) ? line.substring(indent.length()) : line.stripLeading())
                        .append('\n');
            }
            if (i == lines.size()) {
                throw new IllegalArgumentException(page + ":" + (start + 1) + ": a code block that is never closed");
            }
            blocks.add(block(page, start, language, text.toString(), commentsAbove(lines, start)));
        }
        return blocks;
    }

    private static Block block(String page, int fenceIndex, String language, String text, List<String> comments) {
        Optional<String> notRun = Optional.empty();
        List<String> expectations = new ArrayList<>();
        for (String comment : comments) {
            Matcher reason = NOT_RUN.matcher(comment);
            Matcher expect = EXPECT.matcher(comment);
            if (reason.matches()) {
                notRun = Optional.of(reason.group(1));
            } else if (expect.matches()) {
                expectations.add(expect.group(1));
            }
        }
        Kind kind;
        if (notRun.isPresent()) {
            kind = Kind.NOT_RUN;
        } else {
            kind = switch (language) {
                case "ts" -> Kind.TYPESCRIPT;
                case "java" -> Kind.JAVA;
                case "sh" -> Kind.SHELL;
                default -> Kind.UNMARKED;
            };
        }
        return new Block(page, fenceIndex + 1, language, text, kind, notRun, List.copyOf(expectations));
    }

    /** The HTML comment lines directly above the fence, blank lines between them allowed. */
    private static List<String> commentsAbove(List<String> lines, int fenceIndex) {
        List<String> comments = new ArrayList<>();
        for (int j = fenceIndex - 1; j >= 0; j--) {
            String line = lines.get(j);
            if (line.isBlank()) {
                continue;
            }
            if (!COMMENT.matcher(line).matches()) {
                break;
            }
            comments.addFirst(line);
        }
        return comments;
    }
}
