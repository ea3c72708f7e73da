/**
 * Outgoing SMS, knowing no feature: {@link dev.keyhaven.server.sms.SmsSender}, the Twilio REST message API
 * ({@link dev.keyhaven.server.sms.TwilioSms}), a development file ({@link dev.keyhaven.server.sms.FileSms}), and
 * none ({@link dev.keyhaven.server.sms.SmsSender#NONE}: every send is refused).
 */
package dev.keyhaven.server.sms;
