// Writes vectors.json: Tron transactions built offline by TronWeb 6.5.1's own TransactionBuilder (a block header
// passed in the options makes it build locally instead of asking a node), signed by TronWeb with a fixed key, and
// the signed Transaction hex in both signature conventions, each decoded and verified again by TronWeb.
// Run: npm install tronweb@6.5.1 && node generate-vectors.cjs > vectors.json
const { TronWeb, utils, Trx } = require('tronweb');
const { deserializeTransaction } = utils.deserializeTx;
const { txJsonToPb } = utils.transaction;
const { Transaction } = globalThis.TronWebProto;

// Fixed test keys (SHA-256 of short phrases); never funded.
const sha = (text) => utils.crypto.SHA256(Array.from(Buffer.from(text)))
  .map((b) => (b & 0xff).toString(16).padStart(2, '0')).join('');
const key = sha('keyhaven tron test key');
const owner = TronWeb.address.fromPrivateKey(key);
const receiver = TronWeb.address.fromPrivateKey(sha('keyhaven tron receiver'));
const cosigner = TronWeb.address.fromPrivateKey(sha('keyhaven tron cosigner'));
const witness = TronWeb.address.fromPrivateKey(sha('keyhaven tron witness'));
const usdtNile = 'TXYZopYRdj2D9XRtbG411XZZ3kM5VkAeBf';

// No request is made: every builder below gets a block header, and addUpdateData runs with txLocal.
const tronWeb = new TronWeb({ fullHost: 'http://127.0.0.1:9' });
const blockHeader = {
  ref_block_bytes: '3f8a',
  ref_block_hash: '7d1c2b3a4f5e6d7c',
  expiration: 1764122460000,
  timestamp: 1764122400000,
};
const tb = tronWeb.transactionBuilder;

const hex = (bytes) => Buffer.from(bytes).toString('hex');

async function build() {
  const transfer = await tb.addUpdateData(
    await tb.sendTrx(receiver, 1500000, owner, { blockHeader }), 'Rechnung 42 \u2014 merci \u2600', 'utf8',
    { txLocal: true });
  const trc20 = (await tb.triggerSmartContract(usdtNile, 'transfer(address,uint256)',
    { feeLimit: 100000000, txLocal: true, blockHeader },
    [{ type: 'address', value: receiver }, { type: 'uint256', value: 25000000 }], owner)).transaction;
  const delegate = await tb.delegateResource(
    2000000000, receiver, 'ENERGY', owner, true, 86400, { blockHeader, permissionId: 2 });
  const undelegate = await tb.undelegateResource(1000000000, receiver, 'BANDWIDTH', owner, { blockHeader });
  const freeze = await tb.freezeBalanceV2(5000000000, 'BANDWIDTH', owner, { blockHeader });
  const unfreeze = await tb.unfreezeBalanceV2(3000000, 'ENERGY', owner, { blockHeader });
  const permissions = await tb.updateAccountPermissions(owner,
    { type: 0, permission_name: 'owner', threshold: 1, keys: [{ address: owner, weight: 1 }] },
    undefined,
    [{ type: 2, permission_name: 'payments', threshold: 2,
      operations: '7fff1fc0033e0000000000000000000000000000000000000000000000000000',
      keys: [{ address: owner, weight: 1 }, { address: cosigner, weight: 1 }] }],
    { blockHeader });
  const vote = await tb.vote({ [witness]: 5 }, owner, { blockHeader });
  const asset = await tb.sendToken(receiver, 700, '1002000', owner, { blockHeader });
  return { transfer, trc20, delegate, undelegate, freeze, unfreeze, permissions, vote, asset };
}

// TronWeb's Base58Check form of every 21-byte address in a decoded value, and its UTF-8 reading of the memo.
function readable(rawData) {
  const addresses = {};
  const walk = (node) => {
    if (typeof node === 'string' && /^41[0-9a-fA-F]{40}$/.test(node)) {
      addresses[node.toLowerCase()] = TronWeb.address.fromHex(node);
    } else if (node && typeof node === 'object') {
      Object.values(node).forEach(walk);
    }
  };
  walk(rawData.contract);
  return { addresses, memo_utf8: rawData.data ? TronWeb.toUtf8(rawData.data) : '' };
}

function signedHex(tx, signature) {
  const pb = txJsonToPb(tx);
  pb.addSignature(Uint8Array.from(Buffer.from(signature, 'hex')));
  return hex(pb.serializeBinary());
}

// What TronWeb makes of a signed Transaction hex: its raw part decoded, and the address its signature recovers.
function decodeAndVerify(tx, signedTransactionHex) {
  const decoded = Transaction.deserializeBinary(Uint8Array.from(Buffer.from(signedTransactionHex, 'hex')));
  const rawDataHex = hex(decoded.getRawData().serializeBinary());
  const signature = hex(decoded.getSignatureList_asU8()[0]);
  const rawData = deserializeTransaction(tx.raw_data.contract[0].type, rawDataHex);
  let recovered;
  try {
    recovered = Trx.ecRecover({ txID: tx.txID, raw_data: rawData, raw_data_hex: rawDataHex, signature: [signature] });
  } catch (e) {
    recovered = 'error: ' + e.message;
  }
  return { raw_data_hex: rawDataHex, signature, raw_data: rawData, recovered_address: recovered,
    verified: recovered === owner };
}

(async () => {
  const built = await build();
  const vectors = [];
  for (const [name, tx] of Object.entries(built)) {
    const signed = await tronWeb.trx.sign(tx, key);
    const tronWebSignature = signed.signature[0];
    const recoveryIdSignature = tronWebSignature.slice(0, 128)
      + (parseInt(tronWebSignature.slice(128), 16) - 27).toString(16).padStart(2, '0');
    const tronWebHex = signedHex(tx, tronWebSignature);
    const recoveryIdHex = signedHex(tx, recoveryIdSignature);
    vectors.push({
      name,
      type: tx.raw_data.contract[0].type,
      raw_data_hex: tx.raw_data_hex,
      txID: tx.txID,
      raw_data: tx.raw_data,
      tronweb_reads: readable(tx.raw_data),
      signature_v27: tronWebSignature,
      signed_hex_v27: tronWebHex,
      signed_hex_v0: recoveryIdHex,
      tronweb_decodes_v27: decodeAndVerify(tx, tronWebHex),
      tronweb_decodes_v0: decodeAndVerify(tx, recoveryIdHex),
    });
  }
  const out = {
    generator: 'tronweb@6.5.1 (ethers 6.17.0, google-protobuf 3.21.4), generate-vectors.cjs',
    private_key: key,
    owner_address: owner,
    owner_address_hex: TronWeb.address.toHex(owner),
    receiver_address: receiver,
    cosigner_address: cosigner,
    witness_address: witness,
    vectors,
  };
  process.stdout.write(JSON.stringify(out, null, 2) + '\n');
})().catch((e) => {
  console.error(e);
  process.exit(1);
});
