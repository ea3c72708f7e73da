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

/** The one message to `email` in the Maildir: its headers, then each part of its body decoded. */
export function messageTo(email) {
  const messages = fs.readdirSync(maildir).map((name) => fs.readFileSync(path.join(maildir, name), "utf8"))
    .filter((raw) => raw.includes(`To: ${email}`));
  assert.equal(messages.length, 1, `one message to ${email} in ${maildir}`);
  const raw = messages[0];
  const headers = raw.split(/\r?\n\r?\n/)[0];
  const boundary = headers.match(/boundary="?([^";\r\n]+)"?/)?.[1];
  const parts = boundary ? raw.split(`--${boundary}`).slice(1, -1) : [raw];
  return [headers, ...parts.map(decodedPart)].join("\n");
}
