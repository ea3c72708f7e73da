// The sign-in codes the server under test "sends": with no SMTP server configured it writes each message to the
// Maildir of its data directory, which is how a test reads what a user would find in their inbox.
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";

const maildir = path.join(path.dirname(process.env.KEYHAVEN_API_KEY_PREFIX ?? "."), "maildir", "new");

/** The one-time code in the one message to `email` (quoted-printable undone). */
export function emailedCode(email) {
  const messages = fs.readdirSync(maildir).map((name) => fs.readFileSync(path.join(maildir, name), "utf8"))
    .filter((raw) => raw.includes(`To: ${email}`));
  assert.equal(messages.length, 1, `one message to ${email}`);
  const raw = messages[0].replace(/=\r?\n/g, "")
    .replace(/=([0-9A-F]{2})/g, (_, hex) => String.fromCharCode(parseInt(hex, 16)));
  assert.match(raw, /Subject: .*sign-in code/);
  return raw.match(/monospace;">([0-9A-Z]+)</)[1];
}

/**
 * The one message to `email`, its body readable: a quoted-printable one with its soft breaks and escapes undone (only
 * then: in a 7-bit message `bundle=4B…` is text, not an escape).
 */
export function messageTo(email) {
  const messages = fs.readdirSync(maildir).map((name) => fs.readFileSync(path.join(maildir, name), "utf8"))
    .filter((raw) => raw.includes(`To: ${email}`));
  assert.equal(messages.length, 1, `one message to ${email} in ${maildir}`);
  const raw = messages[0];
  return /Content-Transfer-Encoding: quoted-printable/i.test(raw)
    ? raw.replace(/=\r?\n/g, "").replace(/=([0-9A-F]{2})/g, (_, h) => String.fromCharCode(parseInt(h, 16)))
    : raw;
}
