package dev.keyhaven.server.testing;

import static org.assertj.core.api.Assertions.assertThat;

import com.icegreen.greenmail.util.GreenMail;
import jakarta.mail.BodyPart;
import jakarta.mail.Multipart;
import jakarta.mail.internet.MimeMessage;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The one-time code of the latest email GreenMail received, read from the default code email's HTML part. */
public final class EmailedCodes {
    private static final Pattern CODE = Pattern.compile("monospace;\">([0-9A-Z]+)<");

    private EmailedCodes() {}

    public static String latest(GreenMail smtp) throws Exception {
        assertThat(smtp.waitForIncomingEmail(5_000, 1)).as("a message arrived").isTrue();
        MimeMessage[] received = smtp.getReceivedMessages();
        Multipart multipart = (Multipart) received[received.length - 1].getContent();
        for (int i = 0; i < multipart.getCount(); i++) {
            BodyPart part = multipart.getBodyPart(i);
            if (part.isMimeType("text/html")) {
                Matcher m = CODE.matcher((String) part.getContent());
                assertThat(m.find()).isTrue();
                return m.group(1);
            }
        }
        throw new AssertionError("no HTML part");
    }
}
