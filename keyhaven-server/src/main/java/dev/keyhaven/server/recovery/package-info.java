/**
 * Email recovery: {@code init_user_email_recovery} (V2) finds the user by email, creates a single-use, expiring
 * P-256 recovery credential, and mails its private key as a credential bundle encrypted to the client's target key;
 * {@code recover_user}, stamped with that credential, registers a new passkey or API key and uses the credential up.
 * Builds on {@code user}, {@code custody} and {@code mail}.
 */
package dev.keyhaven.server.recovery;
