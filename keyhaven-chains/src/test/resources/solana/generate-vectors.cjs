// Produces vectors.json, the Solana transactions of SolanaTransactionTest and friends, with independent libraries:
//   mkdir -p /tmp/fixtures-solana && cd /tmp/fixtures-solana && npm init -y
//   npm install @solana/web3.js@1.98.4 @solana/spl-token@0.4.15 @coral-xyz/anchor@0.32.1
//   NODE_PATH=/tmp/fixtures-solana/node_modules node <this directory>/generate-vectors.cjs <this directory>
// Keys are Keypair.fromSeed(32 bytes of n), "K<n>"; every transaction is serialized the way @turnkey/solana sends it.
const fs = require("fs");
const path = require("path");
const crypto = require("crypto");
const web3 = require("@solana/web3.js");
const spl = require("@solana/spl-token");
const { BorshInstructionCoder, BN } = require("@coral-xyz/anchor");
const bs58 = require("bs58").default || require("bs58");

const dir = process.argv[2];
const K = (n) => web3.Keypair.fromSeed(new Uint8Array(32).fill(n));
const blockhash = bs58.encode(Buffer.alloc(32, 7));
const JUP = new web3.PublicKey("JUP6LkbZbjS1jKKwapdHNy74zcZ3tLUZoi5QNyVTaV4");

function wire(tx) {
  return Buffer.from(tx.serialize({ requireAllSignatures: false, verifySignatures: false })).toString("hex");
}

function legacy(payer, instructions) {
  const tx = new web3.Transaction({ feePayer: payer.publicKey, recentBlockhash: blockhash });
  tx.add(...instructions);
  return tx;
}

function describe(message) {
  return {
    header: message.header,
    staticKeys: message.staticAccountKeys.map((k) => k.toBase58()),
    instructions: message.compiledInstructions.map((ix) => ({
      programIdIndex: ix.programIdIndex,
      accounts: ix.accountKeyIndexes,
      data: Buffer.from(ix.data).toString("hex"),
    })),
    lookups: (message.addressTableLookups || []).map((l) => ({
      key: l.accountKey.toBase58(),
      writable: l.writableIndexes,
      readonly: l.readonlyIndexes,
    })),
  };
}

function legacyVector(tx) {
  return { wire: wire(tx), message: tx.serializeMessage().toString("hex"), ...describe(tx.compileMessage()) };
}

async function main() {
  const out = { blockhash, keys: {} };
  for (let n = 1; n <= 12; n++) out.keys["K" + n] = K(n).publicKey.toBase58();

  out.legacy_system_transfer = legacyVector(legacy(K(1), [
    web3.SystemProgram.transfer({ fromPubkey: K(1).publicKey, toPubkey: K(3).publicKey, lamports: 1_000_000 }),
  ]));

  const derived = await web3.PublicKey.createWithSeed(K(1).publicKey, "vault", web3.SystemProgram.programId);
  out.derived_vault = derived.toBase58();
  out.legacy_transfer_with_seed = legacyVector(legacy(K(1), [
    web3.SystemProgram.transfer({
      fromPubkey: derived, basePubkey: K(1).publicKey, toPubkey: K(3).publicKey,
      lamports: 777, seed: "vault", programId: web3.SystemProgram.programId,
    }),
  ]));

  const twoSigners = legacy(K(1), [
    web3.SystemProgram.transfer({ fromPubkey: K(2).publicKey, toPubkey: K(3).publicKey, lamports: 2_500_000 }),
  ]);
  out.legacy_two_signers = legacyVector(twoSigners);
  twoSigners.partialSign(K(2));
  out.legacy_two_signers.signedBySecond = wire(twoSigners);

  out.legacy_spl = legacyVector(legacy(K(1), [
    spl.createTransferInstruction(K(4).publicKey, K(5).publicKey, K(1).publicKey, 42_000_000),
    spl.createTransferCheckedInstruction(K(4).publicKey, K(6).publicKey, K(5).publicKey, K(1).publicKey, 1_500_000, 6),
  ]));

  out.legacy_spl_multisig = legacyVector(legacy(K(1), [
    spl.createTransferCheckedInstruction(K(4).publicKey, K(6).publicKey, K(5).publicKey, K(7).publicKey, 9, 0,
      [K(8).publicKey, K(9).publicKey]),
  ]));

  out.legacy_token2022_fee = legacyVector(legacy(K(1), [
    spl.createTransferCheckedWithFeeInstruction(K(4).publicKey, K(6).publicKey, K(5).publicKey, K(1).publicKey,
      1_000_000n, 6, 5_000n, [], spl.TOKEN_2022_PROGRAM_ID),
  ]));

  const idlNew = JSON.parse(fs.readFileSync(path.join(dir, "swap-idl-anchor-0.30.json"), "utf8"));
  const coder = new BorshInstructionCoder(idlNew);
  for (const ix of idlNew.instructions) {
    const sighash = [...crypto.createHash("sha256").update("global:" + ix.name).digest().subarray(0, 8)];
    if (JSON.stringify(sighash) !== JSON.stringify(ix.discriminator)) throw new Error("discriminator of " + ix.name);
  }
  const routeData = coder.encode("route", {
    route_plan: [
      { swap: { Saber: {} }, percent: 60, input_index: 0, output_index: 1 },
      { swap: { Whirlpool: { a_to_b: true } }, percent: 40, input_index: 0, output_index: 1 },
      { swap: { Raydium: { 0: new BN(7), 1: K(12).publicKey } }, percent: 100, input_index: 1, output_index: 2 },
    ],
    in_amount: new BN(995500000),
    quoted_out_amount: new BN(123456789),
    slippage_bps: 50,
    platform_fee_bps: 0,
    referrer: K(3).publicKey,
    deadline: null,
  });
  out.route_data = routeData.toString("hex");
  out.route_decoded_by_anchor = coder.decode(routeData);
  const routeIx = (destination) => new web3.TransactionInstruction({
    programId: JUP,
    keys: [
      { pubkey: spl.TOKEN_PROGRAM_ID, isSigner: false, isWritable: false },
      { pubkey: K(1).publicKey, isSigner: true, isWritable: false },
      { pubkey: K(4).publicKey, isSigner: false, isWritable: true },
      { pubkey: destination, isSigner: false, isWritable: true },
      { pubkey: JUP, isSigner: false, isWritable: false },
      { pubkey: K(11).publicKey, isSigner: false, isWritable: true },
    ],
    data: routeData,
  });
  out.legacy_anchor_route = legacyVector(legacy(K(1), [routeIx(K(5).publicKey)]));

  const setConfigData = coder.encode("set_config", {
    label: "keyhaven \u2713",
    payload: Buffer.from("deadbeef", "hex"),
    limits: [1, 2, 65535],
    fee_rate: 0.0025,
    ratio: 1.5,
    delta: new BN(-42),
    big: new BN(1).shln(128).subn(1),
    small: new BN(1).shln(127).neg(),
    tiny: -7,
    flag: true,
    mode: { Active: {} },
    window: { 0: 10, 1: 20 },
    fee_tier: 300,
  });
  out.set_config_data = setConfigData.toString("hex");
  out.set_config_decoded_by_anchor = coder.decode(setConfigData);
  out.legacy_anchor_set_config = legacyVector(legacy(K(1), [new web3.TransactionInstruction({
    programId: JUP,
    keys: [
      { pubkey: K(1).publicKey, isSigner: true, isWritable: false },
      { pubkey: K(2).publicKey, isSigner: false, isWritable: true },
      { pubkey: web3.SystemProgram.programId, isSigner: false, isWritable: false },
    ],
    data: setConfigData,
  })]));

  const table = new web3.AddressLookupTableAccount({
    key: K(10).publicKey,
    state: {
      deactivationSlot: BigInt("18446744073709551615"), lastExtendedSlot: 0, lastExtendedSlotStartIndex: 0,
      authority: undefined,
      addresses: [K(3).publicKey, K(11).publicKey, K(12).publicKey, K(5).publicKey],
    },
  });
  const v0 = new web3.TransactionMessage({
    payerKey: K(1).publicKey,
    recentBlockhash: blockhash,
    instructions: [
      web3.SystemProgram.transfer({ fromPubkey: K(1).publicKey, toPubkey: K(11).publicKey, lamports: 5_000_000 }),
      spl.createTransferCheckedInstruction(K(4).publicKey, K(12).publicKey, K(5).publicKey, K(1).publicKey, 250, 2),
      routeIx(K(5).publicKey),
    ],
  }).compileToV0Message([table]);
  const v0tx = new web3.VersionedTransaction(v0);
  out.v0_lookup = {
    wire: Buffer.from(v0tx.serialize()).toString("hex"),
    message: Buffer.from(v0.serialize()).toString("hex"),
    ...describe(v0),
  };
  fs.writeFileSync(path.join(dir, "vectors.json"), JSON.stringify(out, null, 2) + "\n");
}

main().catch((e) => { console.error(e); process.exit(1); });
