package dev.keyhaven.server.sms;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Clock;

/** Development: appends each message as one line ({@code <instant> <to> <text>}) to a file. */
public final class FileSms implements SmsSender {
    private final Path file;
    private final Clock clock;

    public FileSms(Path file, Clock clock) {
        this.file = file;
        this.clock = clock;
    }

    @Override
    public synchronized void send(String to, String text) throws SmsException {
        String line = clock.instant() + " " + to + " " + text.replace('\n', ' ') + "\n";
        try {
            if (file.getParent() != null) {
                Files.createDirectories(file.getParent());
            }
            Files.writeString(file, line, StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        } catch (IOException e) {
            throw new SmsException("could not append to " + file + ": " + e.getMessage());
        }
    }

    @Override
    public String describe() {
        return "the file " + file;
    }
}
