// Tron signing (sign_transaction, TRANSACTION_TYPE_TRON) of transactions TronWeb 6.5.1 builds offline: a TRX transfer
// with a memo and a TRC-20 transfer (TriggerSmartContract). The unsigned input is TronWeb's raw_data_hex; the result,
// the signed protobuf Transaction, is decoded with TronWeb's own protobuf classes: raw_data must come back unchanged,
// its SHA-256 must be TronWeb's txID, the bytes must be exactly what TronWeb serialises for that signature, and
// Trx.ecRecover must recover the account's address. Also the V1 activity (privateKeyId) through @turnkey/http, and
// the refusals of a key on the wrong curve and of bytes that are no raw_data.
import assert from "node:assert/strict";
import crypto from "node:crypto";
import { after, before, describe, test } from "node:test";
import { TurnkeyClient } from "@turnkey/http";
import { TronWeb, Trx, utils } from "tronweb";
import {
  assertCompleted,
  assertRequestError,
  baseUrl,
  organizationId,
  rootKey,
  sdkClientFor,
  stamperFor,
  unique,
} from "../lib/keyhaven.mjs";

const sdk = sdkClientFor();
const http = new TurnkeyClient({ baseUrl }, stamperFor(rootKey));
// Importing tronweb installs its protobuf classes (google-protobuf) on globalThis.
const { Transaction } = globalThis.TronWebProto;

/** TronWeb's offline builder: a block header in the options makes it build locally instead of asking a node. */
const tronWeb = new TronWeb({ fullHost: "http://127.0.0.1:9" });
const builder = tronWeb.transactionBuilder;
const blockHeader = {
  ref_block_bytes: "3f8a", ref_block_hash: "7d1c2b3a4f5e6d7c", expiration: 1764122460000, timestamp: 1764122400000,
};
/** The address of a fixed, never funded key (as keyhaven-chains' Tron vectors derive it), and USDT on Nile. */
const receiver = TronWeb.address.fromPrivateKey(
  crypto.createHash("sha256").update("keyhaven tron receiver").digest("hex"));
const usdtNile = "TXYZopYRdj2D9XRtbG411XZZ3kM5VkAeBf";

const hex = (bytes) => Buffer.from(bytes).toString("hex");

/** A TRX transfer with a UTF-8 memo, and a TRC-20 transfer(address,uint256), both from `owner`. */
async function transactionsFrom(owner) {
  const transfer = await builder.addUpdateData(await builder.sendTrx(receiver, 1_500_000, owner, { blockHeader }),
    "Rechnung 42 \u2014 merci \u2600", "utf8", { txLocal: true });
  const { transaction: trc20 } = await builder.triggerSmartContract(usdtNile, "transfer(address,uint256)",
    { feeLimit: 100_000_000, txLocal: true, blockHeader },
    [{ type: "address", value: receiver }, { type: "uint256", value: 25_000_000 }], owner);
  return { transfer, trc20 };
}

/**
 * Checks a signed Transaction hex against the unsigned TronWeb transaction `tx` and the signer `address`, with
 * TronWeb's protobuf classes and ecRecover.
 */
function assertSignedBy(signedHex, tx, address) {
  assert.match(signedHex, /^[0-9a-f]+$/, "hex without 0x");
  const decoded = Transaction.deserializeBinary(Buffer.from(signedHex, "hex"));
  const rawDataHex = hex(decoded.getRawData().serializeBinary());
  assert.equal(rawDataHex, tx.raw_data_hex, "raw_data comes back unchanged");
  assert.equal(hex(crypto.createHash("sha256").update(Buffer.from(rawDataHex, "hex")).digest()), tx.txID,
    "the txID is SHA-256 of raw_data");
  const signatures = decoded.getSignatureList_asU8();
  assert.equal(signatures.length, 1);
  const signature = hex(signatures[0]);
  assert.match(signature, /^[0-9a-f]{128}0[01]$/, "65 bytes r‖s‖v with v = 0 or 1");

  const expected = utils.transaction.txJsonToPb(tx);
  expected.addSignature(signatures[0]);
  assert.equal(signedHex, hex(expected.serializeBinary()), "exactly TronWeb's serialisation of the signed tx");
  assert.equal(Trx.ecRecover({ ...tx, signature: [signature] }), address, "TronWeb recovers the signer");
}

describe("Tron with TronWeb", () => {
  let walletId;
  let tronAddress;
  let solanaAddress;
  let privateKey;

  before(async () => {
    const wallet = await sdk.createWallet({
      walletName: unique("tron"),
      accounts: [
        { curve: "CURVE_SECP256K1", pathFormat: "PATH_FORMAT_BIP32", path: "m/44'/195'/0'/0/0",
          addressFormat: "ADDRESS_FORMAT_TRON" },
        { curve: "CURVE_ED25519", pathFormat: "PATH_FORMAT_BIP32", path: "m/44'/501'/0'/0'",
          addressFormat: "ADDRESS_FORMAT_SOLANA" },
      ],
    });
    walletId = wallet.walletId;
    [tronAddress, solanaAddress] = wallet.addresses;
    const created = await sdk.createPrivateKeys({
      privateKeys: [{
        privateKeyName: unique("tron-key"), curve: "CURVE_SECP256K1", privateKeyTags: [],
        addressFormats: ["ADDRESS_FORMAT_TRON"],
      }],
    });
    privateKey = created.privateKeys[0];
  });

  after(async () => {
    await sdk.deleteWallets({ walletIds: [walletId], deleteWithoutExport: true });
    await sdk.deletePrivateKeys({ privateKeyIds: [privateKey.privateKeyId], deleteWithoutExport: true });
  });

  test("sdk-server signTransaction of a TRX transfer with a memo and of a TRC-20 transfer", async () => {
    const { transfer, trc20 } = await transactionsFrom(tronAddress);
    assert.equal(transfer.raw_data.contract[0].type, "TransferContract");
    assert.equal(trc20.raw_data.contract[0].type, "TriggerSmartContract");
    for (const tx of [transfer, trc20]) {
      const response = await sdk.signTransaction({
        signWith: tronAddress, type: "TRANSACTION_TYPE_TRON", unsignedTransaction: tx.raw_data_hex,
      });
      const result = assertCompleted(response.activity, {
        type: "ACTIVITY_TYPE_SIGN_TRANSACTION_V2", intentKey: "signTransactionIntentV2",
        resultKey: "signTransactionResult",
      });
      assert.equal(response.signedTransaction, result.signedTransaction);
      assertSignedBy(result.signedTransaction, tx, tronAddress);
    }
  });

  test("the V1 activity (ACTIVITY_TYPE_SIGN_TRANSACTION with privateKeyId) through @turnkey/http", async () => {
    const [{ address }] = privateKey.addresses;
    assert.match(address, /^T[1-9A-HJ-NP-Za-km-z]{33}$/);
    const { transfer } = await transactionsFrom(address);
    const { activity } = await http.signTransaction({
      type: "ACTIVITY_TYPE_SIGN_TRANSACTION",
      timestampMs: String(Date.now()),
      organizationId,
      parameters: {
        privateKeyId: privateKey.privateKeyId, type: "TRANSACTION_TYPE_TRON",
        unsignedTransaction: transfer.raw_data_hex,
      },
    });
    const result = assertCompleted(activity, {
      type: "ACTIVITY_TYPE_SIGN_TRANSACTION", intentKey: "signTransactionIntent", resultKey: "signTransactionResult",
    });
    assertSignedBy(result.signedTransaction, transfer, address);
  });

  test("a key on another curve, and bytes that are no raw_data, are TurnkeyRequestError 3", async () => {
    const { transfer } = await transactionsFrom(tronAddress);
    await assertRequestError(sdk.signTransaction({
      signWith: solanaAddress, type: "TRANSACTION_TYPE_TRON", unsignedTransaction: transfer.raw_data_hex,
    }), {
      code: 3, turnkeyErrorCode: "REQUEST_INVALID",
      message: /TRANSACTION_TYPE_TRON needs a CURVE_SECP256K1 key, not CURVE_ED25519/,
    });
    await assertRequestError(sdk.signTransaction({
      signWith: tronAddress, type: "TRANSACTION_TYPE_TRON", unsignedTransaction: transfer.raw_data_hex.slice(0, 20),
    }), {
      code: 3, turnkeyErrorCode: "REQUEST_INVALID",
      message: /parameters.unsignedTransaction is not an unsigned Tron transaction: raw_data is not a valid protobuf/,
    });
  });
});
