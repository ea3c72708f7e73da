package dev.keyhaven.server.mail;

import jakarta.mail.internet.AddressException;
import jakarta.mail.internet.InternetAddress;

/** Checks of email addresses a request names. */
public final class MailAddresses {
    private MailAddresses() {}

    /** Whether {@code text} is one bare address ({@code local@domain}): no display name, no list, no line breaks. */
    public static boolean isValid(String text) {
        if (text.isBlank()
                || text.length() > 254
                || !text.equals(text.strip())
                || text.chars().anyMatch(c -> c < 0x20)
                || text.indexOf('@') <= 0) {
            return false;
        }
        try {
            InternetAddress address = new InternetAddress(text, true);
            address.validate();
            return address.getPersonal() == null
                    && address.getAddress().equals(text)
                    && address.getAddress().lastIndexOf('@')
                            < address.getAddress().length() - 1;
        } catch (AddressException e) {
            return false;
        }
    }
}
