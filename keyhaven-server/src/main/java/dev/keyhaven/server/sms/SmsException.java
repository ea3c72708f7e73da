package dev.keyhaven.server.sms;

/** A message that could not be handed to the SMS provider; the message names the cause, never the text sent. */
public final class SmsException extends Exception {
    private static final long serialVersionUID = 1L;

    public SmsException(String message) {
        super(message);
    }
}
