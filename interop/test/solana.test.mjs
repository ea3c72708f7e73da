// Solana signing with @turnkey/solana's TurnkeySigner over the @turnkey/sdk-server client, on transactions built by
// @solana/web3.js: signTransaction (sign_transaction, TRANSACTION_TYPE_SOLANA) of a legacy Transaction and of a v0
// VersionedTransaction that loads an account from an address lookup table; addSignature (sign_raw_payload over the
// message); a transaction whose fee payer is a web3.js Keypair that signed first, with Keyhaven's account the second
// signer; and a signWith that is no signer of the transaction. Every signature is checked with web3.js'
// verifySignatures() or @noble/curves' Ed25519, and Ed25519 being deterministic, the two ways of signing one message
// must give the same bytes.
//
// @turnkey/core's TurnkeyClient.signTransaction for a Solana account is in core-solana.test.mjs (core needs browser
// globals, which that file installs in its own process).
import assert from "node:assert/strict";
import crypto from "node:crypto";
import { after, before, describe, test } from "node:test";
import { TurnkeySigner } from "@turnkey/solana";
import {
  AddressLookupTableAccount,
  Keypair,
  PublicKey,
  SystemProgram,
  Transaction,
  TransactionMessage,
  VersionedTransaction,
} from "@solana/web3.js";
import { ed25519 } from "@noble/curves/ed25519";
import bs58 from "bs58";
import { assertRequestError, organizationId, sdkClientFor, unique } from "../lib/keyhaven.mjs";

const sdk = sdkClientFor();
const signer = new TurnkeySigner({ organizationId, client: sdk });

/** A fixed 32-byte value as the recent blockhash: signing needs none from a cluster. */
const recentBlockhash = bs58.encode(crypto.createHash("sha256").update("keyhaven interop blockhash").digest());
/** Fixed keys (from fixed seeds), so that a failing run can be replayed. */
const keypairOf = (label) => Keypair.fromSeed(crypto.createHash("sha256").update(label).digest());
const recipient = keypairOf("recipient").publicKey;
const feePayer = keypairOf("fee payer");

const solanaAccount = (index) => ({
  curve: "CURVE_ED25519", pathFormat: "PATH_FORMAT_BIP32", path: `m/44'/501'/${index}'/0'`,
  addressFormat: "ADDRESS_FORMAT_SOLANA",
});

/** Whether `signature` is `address`'s Ed25519 signature of `message`, checked by @noble/curves. */
const verifies = (signature, message, address) =>
  ed25519.verify(signature, message, new PublicKey(address).toBytes());

describe("Solana with @turnkey/solana and @solana/web3.js", () => {
  let walletId;
  let account;
  let stranger;

  before(async () => {
    const wallet = await sdk.createWallet({ walletName: unique("solana"), accounts: [0, 1].map(solanaAccount) });
    walletId = wallet.walletId;
    [account, stranger] = wallet.addresses;
  });

  after(async () => {
    await sdk.deleteWallets({ walletIds: [walletId], deleteWithoutExport: true });
  });

  const transfer = (from, lamports) => SystemProgram.transfer({
    fromPubkey: new PublicKey(from), toPubkey: recipient, lamports,
  });

  test("signTransaction of a legacy transfer paid by the account: its signature in the only slot", async () => {
    const tx = new Transaction({ feePayer: new PublicKey(account), recentBlockhash }).add(transfer(account, 5000));
    const message = tx.serializeMessage();

    const signed = await signer.signTransaction(tx, account);

    assert.ok(signed instanceof Transaction);
    assert.deepEqual(signed.serializeMessage(), message, "the message comes back unchanged");
    assert.equal(signed.signatures.length, 1);
    assert.equal(signed.signatures[0].publicKey.toBase58(), account);
    assert.ok(signed.verifySignatures(), "web3.js verifies every signature");
    assert.ok(verifies(signed.signatures[0].signature, message, account));
    assert.ok(!verifies(signed.signatures[0].signature, message, stranger));
  });

  test("addSignature (sign_raw_payload over the message) gives the very signature signTransaction gives",
    async () => {
      const build = () => new Transaction({ feePayer: new PublicKey(account), recentBlockhash })
        .add(transfer(account, 777));
      const viaRawPayload = build();
      await signer.addSignature(viaRawPayload, account);
      assert.ok(viaRawPayload.verifySignatures());

      const viaTransaction = await signer.signTransaction(build(), account);
      assert.deepEqual(viaTransaction.signatures[0].signature, viaRawPayload.signatures[0].signature,
        "Ed25519 is deterministic: both activities signed the same message bytes");
    });

  test("signTransaction of a v0 transaction whose recipient comes from an address lookup table", async () => {
    const lookupTable = new AddressLookupTableAccount({
      key: keypairOf("lookup table").publicKey,
      state: {
        deactivationSlot: BigInt("18446744073709551615"), lastExtendedSlot: 0, lastExtendedSlotStartIndex: 0,
        addresses: [keypairOf("unused").publicKey, recipient],
      },
    });
    const message = new TransactionMessage({
      payerKey: new PublicKey(account), recentBlockhash, instructions: [transfer(account, 123456)],
    }).compileToV0Message([lookupTable]);
    assert.deepEqual(message.addressTableLookups.map((l) => [l.accountKey.toBase58(), l.writableIndexes]),
      [[lookupTable.key.toBase58(), [1]]], "web3.js loads the recipient from the table");
    const tx = new VersionedTransaction(message);

    const signed = await signer.signTransaction(tx, account);

    assert.ok(signed instanceof VersionedTransaction);
    assert.equal(signed.version, 0);
    assert.deepEqual(signed.message.serialize(), message.serialize(), "the message comes back unchanged");
    assert.equal(signed.signatures.length, 1);
    assert.ok(verifies(signed.signatures[0], message.serialize(), account));
  });

  test("a legacy transaction the fee payer signed first: the account fills the second slot, the first is kept",
    async () => {
      const tx = new Transaction({ feePayer: feePayer.publicKey, recentBlockhash }).add(transfer(account, 42));
      tx.partialSign(feePayer);
      const payerSignature = Buffer.from(tx.signatures[0].signature);
      assert.ok(!tx.verifySignatures(), "not yet: the account's slot is empty");

      const signed = await signer.signTransaction(tx, account);

      assert.deepEqual(signed.signatures.map((s) => s.publicKey.toBase58()), [feePayer.publicKey.toBase58(), account]);
      assert.deepEqual(Buffer.from(signed.signatures[0].signature), payerSignature, "the payer's bytes are untouched");
      assert.ok(signed.verifySignatures(), "both signatures verify");
      assert.ok(verifies(signed.signatures[1].signature, tx.serializeMessage(), account));
    });

  test("a v0 transaction the fee payer signed first: the account fills the second slot, the first is kept",
    async () => {
      const message = new TransactionMessage({
        payerKey: feePayer.publicKey, recentBlockhash, instructions: [transfer(account, 43)],
      }).compileToV0Message();
      const tx = new VersionedTransaction(message);
      tx.sign([feePayer]);
      const payerSignature = Buffer.from(tx.signatures[0]);
      assert.deepEqual(Buffer.from(tx.signatures[1]), Buffer.alloc(64), "the account's slot starts zeroed");

      const signed = await signer.signTransaction(tx, account);

      const bytes = message.serialize();
      assert.deepEqual(Buffer.from(signed.signatures[0]), payerSignature, "the payer's bytes are untouched");
      assert.ok(verifies(signed.signatures[0], bytes, feePayer.publicKey.toBase58()));
      assert.ok(verifies(signed.signatures[1], bytes, account));
    });

  test("a signWith that is no signer of the transaction is TurnkeyRequestError 3 naming it and the signers",
    async () => {
      const tx = new Transaction({ feePayer: new PublicKey(account), recentBlockhash }).add(transfer(account, 1));
      await assertRequestError(signer.signTransaction(tx, stranger), {
        code: 3, turnkeyErrorCode: "REQUEST_INVALID",
        message: new RegExp(`signWith is not a required signer of this Solana transaction: ${stranger} is none of `
          + `its 1 signers \\(${account}\\)`),
      });
    });
});
