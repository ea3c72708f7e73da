package dev.keyhaven.server.recovery;

import dev.keyhaven.server.api.ApiException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.Comparator;
import java.util.Optional;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The operator's email templates: files {@code <templateId>.html} (and optionally {@code <templateId>.txt}) in one
 * directory, read when used, so an operator adds or edits one without a restart. Without a {@code templateId} the
 * most recent template (latest modification time) is used; with none at all, the built-in one.
 */
final class EmailTemplates {
    private static final Pattern ID = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,63}");

    private final Optional<Path> directory;

    EmailTemplates(Optional<Path> directory) {
        this.directory = directory;
    }

    /** A template's HTML and, if the operator wrote one, its plain-text form. */
    record Template(String id, String html, Optional<String> text) {}

    /**
     * The template {@code templateId} names, or the most recent one; empty means the built-in template.
     *
     * @throws ApiException 400 naming {@code field} for an id that names no template
     */
    Optional<Template> find(Optional<String> templateId, String field) {
        if (templateId.isPresent()) {
            String id = templateId.get();
            Optional<Path> file = directory
                    .filter(d -> ID.matcher(id).matches())
                    .map(d -> d.resolve(id + ".html"))
                    .filter(Files::isRegularFile);
            return Optional.of(load(
                    file.orElseThrow(() -> ApiException.badField(field, "names no email template of this server"))));
        }
        return newest().map(EmailTemplates::load);
    }

    private Optional<Path> newest() {
        if (directory.isEmpty() || !Files.isDirectory(directory.get())) {
            return Optional.empty();
        }
        try (Stream<Path> files = Files.list(directory.get())) {
            return files.filter(f -> f.getFileName().toString().endsWith(".html") && Files.isRegularFile(f))
                    .filter(f -> ID.matcher(idOf(f)).matches())
                    .max(Comparator.comparing(EmailTemplates::modified).thenComparing(EmailTemplates::idOf));
        } catch (IOException e) {
            throw new UncheckedIOException("listing the email templates in " + directory.get() + " failed", e);
        }
    }

    private static Template load(Path html) {
        Path text = html.resolveSibling(idOf(html) + ".txt");
        try {
            return new Template(
                    idOf(html),
                    Files.readString(html, StandardCharsets.UTF_8),
                    Files.isRegularFile(text)
                            ? Optional.of(Files.readString(text, StandardCharsets.UTF_8))
                            : Optional.empty());
        } catch (IOException e) {
            throw new UncheckedIOException("reading the email template " + html + " failed", e);
        }
    }

    private static String idOf(Path file) {
        String name = file.getFileName().toString();
        return name.substring(0, name.lastIndexOf('.'));
    }

    private static FileTime modified(Path file) {
        try {
            return Files.getLastModifiedTime(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
