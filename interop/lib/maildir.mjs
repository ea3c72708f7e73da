// The sign-in codes the server under test "sends": with no SMTP server configured it writes each message to the
// Maildir of its data directory, which is how a test reads what a user would find in their inbox.
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";

const maildir = path.join(path.dirname(process.env.KEYHAVEN_API_KEY_PREFIX ?? "."), "maildir", "new");

/**
 * The one-time code in the newest message to `email`, which must have received exactly `messages` (one unless told:
 * a second sign-in round sends a second code). Messages are files named `<epoch ms>.<uuid>.keyhaven`: their names
 * sort in delivery order.
 */
export function emailedCode(email, { messages = 1 } = {}) {
  const delivered = messagesTo(email);
  assert.equal(delivered.length, messages, `${messages} message(s) to ${email}`);
  const raw = readable(delivered.at(-1));
  assert.match(raw, /Subject: .*sign-in code/);
  return raw.match(/monospace;">([0-9A-Z]+)</)[1];
}

/** The raw messages to `email`, oldest first. */
function messagesTo(email) {
  return fs.readdirSync(maildir)
    .sort((a, b) => Number(a.split(".")[0]) - Number(b.split(".")[0]))
    .map((name) => fs.readFileSync(path.join(maildir, name), "utf8"))
    .filter((raw) => raw.includes(`To: ${email}`));
}

/** A quoted-printable message with its soft breaks and escapes undone (only then: in 7-bit, `=4B` is text). */
function readable(raw) {
  return /Content-Transfer-Encoding: quoted-printable/i.test(raw)
    ? raw.replace(/=\r?\n/g, "").replace(/=([0-9A-F]{2})/g, (_, h) => String.fromCharCode(parseInt(h, 16)))
    : raw;
}

/**
 * The one message to `email`, its body readable: a quoted-printable one with its soft breaks and escapes undone (only
 * then: in a 7-bit message `bundle=4B…` is text, not an escape).
 */
export function messageTo(email) {
  const messages = messagesTo(email);
  assert.equal(messages.length, 1, `one message to ${email} in ${maildir}`);
  return readable(messages[0]);
}
