package dev.keyhaven.server.sms;

/** Sends one text message. */
public interface SmsSender {
    /** No provider configured: every send is refused. */
    SmsSender NONE = new SmsSender() {
        @Override
        public boolean configured() {
            return false;
        }

        @Override
        public void send(String to, String text) throws SmsException {
            throw new SmsException("no SMS provider is configured (serve --sms-provider twilio|file)");
        }

        @Override
        public String describe() {
            return "no SMS provider";
        }
    };

    /** Whether messages can be sent at all. */
    default boolean configured() {
        return true;
    }

    void send(String to, String text) throws SmsException;

    /** Where messages go, for the start-up log (no secrets). */
    String describe();
}
