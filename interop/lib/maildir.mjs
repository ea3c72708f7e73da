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

/** A MIME part's body as a mail client shows it: its Content-Transfer-Encoding undone. */
function decodedPart(part) {
  const [head, ...rest] = part.replace(/^\r?\n/, "").split(/\r?\n\r?\n/);
  const body = rest.join("\n\n");
  switch ((head.match(/Content-Transfer-Encoding: *(\S+)/i)?.[1] ?? "7bit").toLowerCase()) {
    case "quoted-printable":
      return body.replace(/=\r?\n/g, "").replace(/=([0-9A-F]{2})/g, (_, h) => String.fromCharCode(parseInt(h, 16)));
    case "base64":
      return Buffer.from(body.replace(/\s+/g, ""), "base64").toString("utf8");
    default:
      // 7bit or 8bit: as it is (decoding "=2D" here would corrupt a bundle that starts with "2D").
      return body;
  }
}

/** A raw message as a mail client shows it: its headers, then each part of its body decoded. */
function readable(raw) {
  const headers = raw.split(/\r?\n\r?\n/)[0];
  const boundary = headers.match(/boundary="?([^";\r\n]+)"?/)?.[1];
  const parts = boundary ? raw.split(`--${boundary}`).slice(1, -1) : [raw];
  return [headers, ...parts.map(decodedPart)].join("\n");
}

/** The one message to `email` in the Maildir, readable. */
export function messageTo(email) {
  const messages = messagesTo(email);
  assert.equal(messages.length, 1, `one message to ${email} in ${maildir}`);
  return readable(messages[0]);
}

/** The newest of the `messages` messages to `email` in the Maildir, readable. */
export function newestMessageTo(email, { messages }) {
  const delivered = messagesTo(email);
  assert.equal(delivered.length, messages, `${messages} message(s) to ${email} in ${maildir}`);
  return readable(delivered.at(-1));
}
