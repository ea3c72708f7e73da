// Bitcoin signing (sign_transaction, TRANSACTION_TYPE_BITCOIN) of testnet PSBTs built with bitcoinjs-lib 7.0.5, with
// @bitcoinerlab/secp256k1 as its elliptic-curve library and ecpair 3.0.2 for a co-signer's key pair. The previous
// transactions are made up (nothing is broadcast), and the UTXO data is filled as BIP-174 asks: the whole previous
// transaction for P2PKH and P2SH inputs, the spent output for P2WPKH, P2WSH and P2TR ones. Keyhaven returns the PSBT,
// not finalised; bitcoinjs validates its signatures (ECDSA or BIP-340 Schnorr), the co-signer adds its own to the
// 2-of-2 multisigs, and finalizeAllInputs() and extractTransaction() must succeed. Also: inputs that are not the
// account's stay unsigned; inputs Keyhaven cannot sign (P2SH-P2WPKH, a taproot script path, no UTXO data) are refused
// naming their index; and policies on bitcoin.tx.outputs and bitcoin.tx.fee (readable only where the previous
// transactions prove the amounts: a DENY on it fails closed otherwise).
import assert from "node:assert/strict";
import crypto from "node:crypto";
import { after, afterEach, before, describe, test } from "node:test";
import * as bitcoin from "bitcoinjs-lib";
import ecc from "@bitcoinerlab/secp256k1";
import { ECPairFactory } from "ecpair";
import { assertCompleted, assertRequestError, policySandbox, sdkClientFor, unique } from "../lib/keyhaven.mjs";

bitcoin.initEccLib(ecc);
const ECPair = ECPairFactory(ecc);
const network = bitcoin.networks.testnet;
const sdk = sdkClientFor();

const hex = (bytes) => Buffer.from(bytes).toString("hex");
const bytes = (hexString) => new Uint8Array(Buffer.from(hexString, "hex"));
const sha256 = (label) => new Uint8Array(crypto.createHash("sha256").update(label).digest());
const xOnly = (publicKey) => publicKey.subarray(1, 33);

/** The co-signer of the multisigs and owner of the inputs that are not Keyhaven's: a fixed, never funded key. */
const cosigner = ECPair.fromPrivateKey(sha256("keyhaven interop bitcoin cosigner"), { network });
const receiver = bitcoin.payments.p2wpkh({
  pubkey: ECPair.fromPrivateKey(sha256("keyhaven interop bitcoin receiver"), { network }).publicKey, network,
}).address;

const ecdsaValidator = (publicKey, hash, signature) => ecc.verify(hash, publicKey, signature);
const schnorrValidator = (publicKey, hash, signature) => ecc.verifySchnorr(hash, publicKey, signature);

const bip32 = (path, addressFormat) => ({
  curve: "CURVE_SECP256K1", pathFormat: "PATH_FORMAT_BIP32", path, addressFormat,
});
const p2ms = (...pubkeys) => bitcoin.payments.p2ms({ m: pubkeys.length, pubkeys, network });

/**
 * A PSBT under construction whose inputs spend outputs of made-up previous transactions (one each, with a
 * distinct fake outpoint of its own), so that a test states only what each input is.
 */
class PsbtBuilder {
  psbt = new bitcoin.Psbt({ network });
  #count = 0;

  #previous(script, value) {
    const tx = new bitcoin.Transaction();
    tx.version = 2;
    tx.addInput(sha256(`keyhaven interop previous ${this.#count++}`), 0);
    tx.addOutput(script, value);
    return tx;
  }

  /** A P2PKH or P2SH input: BIP-174 wants the whole previous transaction (non_witness_utxo). */
  legacy(payment, value, fields = {}) {
    const previous = this.#previous(payment.output, value);
    this.psbt.addInput({ hash: previous.getId(), index: 0, nonWitnessUtxo: previous.toBuffer(), ...fields });
    return this;
  }

  /** A segwit input (v0 or taproot): the spent output (witness_utxo) is enough. */
  segwit(payment, value, fields = {}) {
    const previous = this.#previous(payment.output, value);
    this.psbt.addInput({ hash: previous.getId(), index: 0, witnessUtxo: { script: payment.output, value }, ...fields });
    return this;
  }

  /**
   * A segwit v0 input with the whole previous transaction too, which BIP-174 allows: only it proves the amount
   * (a witness_utxo alone can lie about it, BIP-174's fee attack), so only with it is bitcoin.tx.fee readable.
   */
  provenSegwit(payment, value) {
    const previous = this.#previous(payment.output, value);
    this.psbt.addInput({
      hash: previous.getId(), index: 0, nonWitnessUtxo: previous.toBuffer(),
      witnessUtxo: { script: payment.output, value },
    });
    return this;
  }

  pay(address, value) {
    this.psbt.addOutput({ address, value });
    return this;
  }
}

/** sdk-server's signTransaction of `psbt` with `signWith`; the completed activity's PSBT, parsed by bitcoinjs. */
async function signPsbt(signWith, psbt, client = sdk, orgId) {
  const response = await client.signTransaction({
    signWith, type: "TRANSACTION_TYPE_BITCOIN", unsignedTransaction: psbt.toHex(),
  });
  const result = assertCompleted(response.activity, {
    type: "ACTIVITY_TYPE_SIGN_TRANSACTION_V2", intentKey: "signTransactionIntentV2", resultKey: "signTransactionResult",
    ...(orgId ? { orgId } : {}),
  });
  assert.match(result.signedTransaction, /^70736274ff[0-9a-f]+$/, "a PSBT in hex, without 0x");
  const signed = bitcoin.Psbt.fromHex(result.signedTransaction, { network });
  assert.equal(hex(signed.data.globalMap.unsignedTx.toBuffer()), hex(psbt.data.globalMap.unsignedTx.toBuffer()),
    "the unsigned transaction is unchanged");
  for (const input of signed.data.inputs) {
    assert.equal(input.finalScriptSig, undefined, "not finalised");
    assert.equal(input.finalScriptWitness, undefined, "not finalised");
  }
  return signed;
}

/** The public keys of an input's ECDSA partial signatures, hex; each signature is DER ‖ SIGHASH_ALL. */
function ecdsaSigners(input) {
  return (input.partialSig ?? []).map(({ pubkey, signature }) => {
    assert.equal(signature.at(-1), bitcoin.Transaction.SIGHASH_ALL, "DER ‖ 0x01");
    assert.ok(bitcoin.script.isCanonicalScriptSignature(signature), "a canonical DER signature with its hash type");
    return hex(pubkey);
  });
}

describe("Bitcoin PSBTs with bitcoinjs-lib", () => {
  let walletId;
  /** The wallet's accounts by kind: {address, publicKey (bytes)}. */
  const accounts = {};

  before(async () => {
    const wallet = await sdk.createWallet({
      walletName: unique("bitcoin"),
      accounts: [
        bip32("m/44'/1'/0'/0/0", "ADDRESS_FORMAT_BITCOIN_TESTNET_P2PKH"),
        bip32("m/84'/1'/0'/0/0", "ADDRESS_FORMAT_BITCOIN_TESTNET_P2WPKH"),
        bip32("m/86'/1'/0'/0/0", "ADDRESS_FORMAT_BITCOIN_TESTNET_P2TR"),
        bip32("m/49'/1'/0'/0/0", "ADDRESS_FORMAT_BITCOIN_TESTNET_P2SH"),
      ],
    });
    walletId = wallet.walletId;
    const { accounts: listed } = await sdk.getWalletAccounts({ walletId });
    for (const [kind, account] of ["p2pkh", "p2wpkh", "p2tr", "p2sh"].map((k, i) => [k, listed[i]])) {
      accounts[kind] = { address: account.address, publicKey: bytes(account.publicKey) };
    }
    // The addresses are the ones bitcoinjs derives from the public keys, so the scripts below are the accounts'.
    assert.equal(bitcoin.payments.p2pkh({ pubkey: accounts.p2pkh.publicKey, network }).address, accounts.p2pkh.address);
    assert.equal(bitcoin.payments.p2wpkh({ pubkey: accounts.p2wpkh.publicKey, network }).address,
      accounts.p2wpkh.address);
    assert.equal(bitcoin.payments.p2tr({ internalPubkey: xOnly(accounts.p2tr.publicKey), network }).address,
      accounts.p2tr.address);
  });

  after(async () => {
    await sdk.deleteWallets({ walletIds: [walletId], deleteWithoutExport: true });
  });

  test("one input of each kind: each account signs exactly its inputs, and the transaction finalises", async () => {
    const { p2pkh, p2wpkh, p2tr } = accounts;
    const p2sh = bitcoin.payments.p2sh({ redeem: p2ms(p2pkh.publicKey, cosigner.publicKey), network });
    const p2wsh = bitcoin.payments.p2wsh({ redeem: p2ms(p2wpkh.publicKey, cosigner.publicKey), network });
    const unsigned = new PsbtBuilder()
      .legacy(bitcoin.payments.p2pkh({ pubkey: p2pkh.publicKey, network }), 100_000n)
      .segwit(bitcoin.payments.p2wpkh({ pubkey: p2wpkh.publicKey, network }), 200_000n)
      .segwit(bitcoin.payments.p2tr({ internalPubkey: xOnly(p2tr.publicKey), network }), 300_000n,
        { tapInternalKey: xOnly(p2tr.publicKey) })
      .legacy(p2sh, 400_000n, { redeemScript: p2sh.redeem.output })
      .segwit(p2wsh, 500_000n, { witnessScript: p2wsh.redeem.output })
      .pay(receiver, 1_400_000n)
      .pay(p2wpkh.address, 95_000n)
      .psbt;

    // The P2PKH account's key is in inputs 0 (P2PKH) and 3 (P2SH multisig); the P2WPKH account's in 1 and 4.
    const byP2pkh = await signPsbt(p2pkh.address, unsigned);
    assert.deepEqual(byP2pkh.data.inputs.map(ecdsaSigners),
      [[hex(p2pkh.publicKey)], [], [], [hex(p2pkh.publicKey)], []]);
    assert.ok(byP2pkh.data.inputs.every((input) => input.tapKeySig === undefined));

    const byP2wpkh = await signPsbt(p2wpkh.address, byP2pkh);
    assert.deepEqual(byP2wpkh.data.inputs.map(ecdsaSigners),
      [[hex(p2pkh.publicKey)], [hex(p2wpkh.publicKey)], [], [hex(p2pkh.publicKey)], [hex(p2wpkh.publicKey)]]);

    const byP2tr = await signPsbt(p2tr.address, byP2wpkh);
    assert.deepEqual(byP2tr.data.inputs.map((input) => input.tapKeySig?.length), [undefined, undefined, 64,
      undefined, undefined], "a 64-byte BIP-340 signature (SIGHASH_DEFAULT) in input 2's tap_key_sig only");
    assert.deepEqual(byP2tr.data.inputs.map(ecdsaSigners), byP2wpkh.data.inputs.map(ecdsaSigners));

    for (const index of [0, 1, 3, 4]) {
      assert.ok(byP2tr.validateSignaturesOfInput(index, ecdsaValidator), `input ${index}'s ECDSA signature verifies`);
    }
    assert.ok(byP2tr.validateSignaturesOfInput(2, schnorrValidator), "input 2's Schnorr signature verifies");

    byP2tr.signInput(3, cosigner).signInput(4, cosigner);
    byP2tr.finalizeAllInputs();
    const transaction = byP2tr.extractTransaction();
    const spent = (tx) => tx.ins.map((input) => `${hex(input.hash)}:${input.index}:${input.sequence}`);
    const paid = (tx) => tx.outs.map((output) => `${hex(output.script)}:${output.value}`);
    const { tx: unsignedTx } = unsigned.data.globalMap.unsignedTx;
    assert.deepEqual(spent(transaction), spent(unsignedTx), "the same outpoints");
    assert.deepEqual(paid(transaction), paid(unsignedTx), "the same outputs");
    assert.equal(transaction.ins.filter((input) => input.witness.length > 0).length, 3, "three segwit inputs");
  });

  test("a mixed PSBT: the account signs its own input and leaves the co-signer's unsigned", async () => {
    const { p2wpkh } = accounts;
    const unsigned = new PsbtBuilder()
      .segwit(bitcoin.payments.p2wpkh({ pubkey: cosigner.publicKey, network }), 70_000n)
      .segwit(bitcoin.payments.p2wpkh({ pubkey: p2wpkh.publicKey, network }), 80_000n)
      .pay(receiver, 149_000n)
      .psbt;

    const signed = await signPsbt(p2wpkh.address, unsigned);

    assert.deepEqual(signed.data.inputs.map(ecdsaSigners), [[], [hex(p2wpkh.publicKey)]]);
    assert.ok(signed.validateSignaturesOfInput(1, ecdsaValidator));
    signed.signInput(0, cosigner);
    signed.finalizeAllInputs();
    assert.equal(signed.extractTransaction().ins.length, 2);
  });

  test("a P2SH-P2WPKH input of the account is TurnkeyRequestError 3 naming the input", async () => {
    const { p2sh: account, p2wpkh } = accounts;
    const nested = bitcoin.payments.p2sh({
      redeem: bitcoin.payments.p2wpkh({ pubkey: account.publicKey, network }), network,
    });
    assert.equal(nested.address, account.address, "Keyhaven's P2SH address format is P2SH-P2WPKH");
    const unsigned = new PsbtBuilder()
      .segwit(bitcoin.payments.p2wpkh({ pubkey: p2wpkh.publicKey, network }), 10_000n)
      .segwit(nested, 90_000n, { redeemScript: nested.redeem.output })
      .pay(receiver, 99_000n)
      .psbt;

    await assertRequestError(sdk.signTransaction({
      signWith: account.address, type: "TRANSACTION_TYPE_BITCOIN", unsignedTransaction: unsigned.toHex(),
    }), {
      code: 3, turnkeyErrorCode: "REQUEST_INVALID",
      message: new RegExp("^Turnkey error 3: cannot sign this PSBT with signWith: input 1: pays the key through "
        + "P2SH-wrapped segwit \\(P2SH-P2WPKH\\), which Keyhaven does not sign"),
    });
  });

  test("a taproot input of the account spent by a script path is TurnkeyRequestError 3 naming the input",
    async () => {
      const { p2tr } = accounts;
      const leaf = { output: bitcoin.script.compile([xOnly(cosigner.publicKey), bitcoin.opcodes.OP_CHECKSIG]) };
      const tree = bitcoin.payments.p2tr({
        internalPubkey: xOnly(p2tr.publicKey), scriptTree: leaf, redeem: leaf, network,
      });
      const unsigned = new PsbtBuilder()
        .segwit(tree, 50_000n, {
          tapInternalKey: xOnly(p2tr.publicKey),
          tapLeafScript: [{ leafVersion: 0xc0, script: leaf.output, controlBlock: tree.witness.at(-1) }],
        })
        .pay(receiver, 49_000n)
        .psbt;

      await assertRequestError(sdk.signTransaction({
        signWith: p2tr.address, type: "TRANSACTION_TYPE_BITCOIN", unsignedTransaction: unsigned.toHex(),
      }), {
        code: 3, turnkeyErrorCode: "REQUEST_INVALID",
        message: new RegExp("^Turnkey error 3: cannot sign this PSBT with signWith: input 0: tap_internal_key is the "
          + "key's, but the output is not its BIP-86 output: it commits to a script tree, which Keyhaven does not "
          + "sign"),
      });
    });

  test("an input of the account without its UTXO data is TurnkeyRequestError 3 naming the input", async () => {
    const { p2wpkh } = accounts;
    const unsigned = new PsbtBuilder()
      .segwit(bitcoin.payments.p2wpkh({ pubkey: p2wpkh.publicKey, network }), 10_000n)
      .pay(receiver, 9_000n)
      .psbt;
    unsigned.addInput({ hash: hex(sha256("an outpoint nobody describes")), index: 3 });

    await assertRequestError(sdk.signTransaction({
      signWith: p2wpkh.address, type: "TRANSACTION_TYPE_BITCOIN", unsignedTransaction: unsigned.toHex(),
    }), {
      code: 3, turnkeyErrorCode: "REQUEST_INVALID",
      message: new RegExp("is not an unsigned Bitcoin \\(PSBT\\) transaction: input 1: has neither non_witness_utxo "
        + "nor witness_utxo, so Keyhaven can tell neither whose it is nor the fee"),
    });
  });
});

describe("policies on bitcoin.tx for a user outside the root quorum", () => {
  let sandbox;
  let account;
  let publicKey;

  before(async () => {
    sandbox = await policySandbox("btc-policies", [bip32("m/84'/1'/0'/0/0", "ADDRESS_FORMAT_BITCOIN_TESTNET_P2WPKH")]);
    [account] = sandbox.addresses;
    const { accounts: listed } = await sandbox.admin.getWalletAccounts({
      walletId: (await sandbox.admin.getWallets()).wallets[0].walletId,
    });
    publicKey = bytes(listed[0].publicKey);
  });

  afterEach(async () => {
    for (const { policyId } of (await sandbox.admin.getPolicies()).policies) {
      await sandbox.admin.deletePolicy({ policyId });
    }
  });

  /**
   * The member's signTransaction of a PSBT spending 100 000 sat of the account to `outputs` ([address, sat]), its
   * input's amount proven by the previous transaction unless `proven` is false.
   */
  function spend(outputs, { proven = true } = {}) {
    const spent = bitcoin.payments.p2wpkh({ pubkey: publicKey, network });
    const builder = proven
      ? new PsbtBuilder().provenSegwit(spent, 100_000n)
      : new PsbtBuilder().segwit(spent, 100_000n);
    for (const [address, value] of outputs) {
      builder.pay(address, value);
    }
    return sandbox.member.sdk.signTransaction({
      signWith: account, type: "TRANSACTION_TYPE_BITCOIN", unsignedTransaction: builder.psbt.toHex(),
    });
  }

  async function evaluationsOf(activity) {
    assert.equal(activity.status, "ACTIVITY_STATUS_FAILED");
    const { policyEvaluations } = await sandbox.admin.getPolicyEvaluations({ activityId: activity.id });
    return policyEvaluations[0].policyEvaluations;
  }

  test("an ALLOW on bitcoin.tx.outputs' addresses and a DENY on bitcoin.tx.fee", async () => {
    const { policyId: allowId } = await sandbox.admin.createPolicy({
      policyName: "to the receiver, change back", effect: "EFFECT_ALLOW", notes: "",
      consensus: `approvers.any(user, user.id == '${sandbox.member.id}')`,
      condition: `bitcoin.tx.outputs.count() == 2 && bitcoin.tx.outputs.all(o, o.address in ['${receiver}', `
        + `'${account}'])`,
    });
    const { policyId: denyId } = await sandbox.admin.createPolicy({
      policyName: "fee at most 10 000 sat", effect: "EFFECT_DENY", condition: "bitcoin.tx.fee > 10000", notes: "",
    });

    const allowed = await spend([[receiver, 60_000n], [account, 35_000n]]); // fee 5 000
    assert.equal(allowed.activity.status, "ACTIVITY_STATUS_COMPLETED", JSON.stringify(allowed.activity.failure));
    const signed = bitcoin.Psbt.fromHex(allowed.signedTransaction, { network });
    assert.ok(signed.validateSignaturesOfInput(0, ecdsaValidator));

    const expensive = await spend([[receiver, 60_000n], [account, 20_000n]]); // fee 20 000
    assert.equal(expensive.activity.failure.message, `request denied by policy ${denyId}`);
    assert.deepEqual(await evaluationsOf(expensive.activity), [
      { policyId: allowId, outcome: "OUTCOME_ALLOW" },
      { policyId: denyId, outcome: "OUTCOME_DENY_EXPLICIT" },
      { outcome: "OUTCOME_DENY_EXPLICIT" },
    ]);

    // With a witness_utxo alone the amount is unproven: the fee is unreadable, and the DENY reading it fails closed.
    const unproven = await spend([[receiver, 60_000n], [account, 35_000n]], { proven: false });
    assert.deepEqual(await evaluationsOf(unproven.activity), [
      { policyId: allowId, outcome: "OUTCOME_ALLOW" },
      {
        policyId: denyId, outcome: "OUTCOME_ERROR", failsClosed: true,
        error: "condition: UNREADABLE: cannot read 'bitcoin.tx.fee': the fee depends on the amount of input 0, which "
          + "only its witness_utxo gives and nothing proves (BIP-174's fee attack on segwit v0 inputs): give that "
          + "input's non_witness_utxo at column 16",
      },
      { outcome: "OUTCOME_DENY_EXPLICIT" },
    ]);

    const elsewhere = await spend([[receiver, 60_000n], [bitcoin.payments.p2wpkh({
      pubkey: cosigner.publicKey, network,
    }).address, 35_000n]]);
    assert.deepEqual(await evaluationsOf(elsewhere.activity), [
      { policyId: allowId, outcome: "OUTCOME_DENY_IMPLICIT" },
      { policyId: denyId, outcome: "OUTCOME_DENY_IMPLICIT" },
      { outcome: "OUTCOME_DENY_IMPLICIT" },
    ]);
  });
});
