// Signing with Turnkey's own signer packages and raw payloads, every signature checked by an independent library:
// - @turnkey/viem createAccount, for a wallet account's Ethereum address and for a private key id (viem looks the
//   address up with get_private_key), with the sdk-server client and with @turnkey/http's TurnkeyClient: signMessage,
//   signTypedData (EIP-712), sign({hash}), signAuthorization (EIP-7702), all verified and recovered with viem;
// - @turnkey/ethers TurnkeySigner: signMessage and signTypedData, verified with ethers v6;
// - sign_raw_payload / sign_raw_payloads through the SDK for Ed25519, P-256 and secp256k1, verified with @noble/curves.
// - signTransaction through both signers (sign_transaction for TRANSACTION_TYPE_ETHEREUM), recovered with viem and
//   ethers; TRANSACTION_TYPE_TEMPO is refused as not implemented (Solana, Tron, Bitcoin: files of their own).
import assert from "node:assert/strict";
import crypto from "node:crypto";
import { before, describe, test } from "node:test";
import { TurnkeyClient } from "@turnkey/http";
import { createAccount } from "@turnkey/viem";
import { TurnkeySigner } from "@turnkey/ethers";
import { ethers } from "ethers";
import {
  createWalletClient,
  parseTransaction,
  recoverTransactionAddress,
  custom,
  getTypesForEIP712Domain,
  hashMessage,
  keccak256,
  recoverAddress,
  recoverMessageAddress,
  recoverTypedDataAddress,
  serializeTransaction,
  toHex,
  verifyMessage,
  verifyTypedData,
} from "viem";
import { recoverAuthorizationAddress, verifyAuthorization } from "viem/utils";
import { publicKeyToAddress } from "viem/accounts";
import { ed25519 } from "@noble/curves/ed25519";
import { p256 } from "@noble/curves/p256";
import { secp256k1 } from "@noble/curves/secp256k1";
import {
  apiKeyParams,
  assertCompleted,
  assertRequestError,
  baseUrl,
  newKeyPair,
  organizationId,
  rootKey,
  sdkClientFor,
  stamperFor,
  unique,
} from "../lib/keyhaven.mjs";

const sdk = sdkClientFor();
const http = new TurnkeyClient({ baseUrl }, stamperFor(rootKey));

const bip32 = (curve, path, addressFormat) => ({ curve, pathFormat: "PATH_FORMAT_BIP32", path, addressFormat });
const sha256 = (bytes) => new Uint8Array(crypto.createHash("sha256").update(bytes).digest());
const hexToBytes = (hex) => new Uint8Array(Buffer.from(hex.replace(/^0x/, ""), "hex"));
const bytesToHex = (bytes) => Buffer.from(bytes).toString("hex");

/** The EIP-712 "Mail" example of the EIP itself, with a nested struct and an array added. */
const mail = {
  domain: {
    name: "Ether Mail", version: "1", chainId: 1, verifyingContract: "0xCcCCccccCCCCcCCCCCCcCcCccCcCCCcCcccccccC",
  },
  types: {
    Person: [{ name: "name", type: "string" }, { name: "wallets", type: "address[]" }],
    Mail: [
      { name: "from", type: "Person" }, { name: "to", type: "Person[]" }, { name: "contents", type: "string" },
      { name: "attachment", type: "bytes" },
    ],
  },
  primaryType: "Mail",
  message: {
    from: { name: "Cow", wallets: ["0xCD2a3d9F938E13CD947Ec05AbC7FE734Df8DD826"] },
    to: [{
      name: "Bob",
      wallets: ["0xbBbBBBBbbBBBbbbBbbBbbbbBBbBbbbbBbBbbBBbB", "0xB0BdaBea57B0BDABeA57b0bdABEA57b0BDabEa57"],
    }],
    contents: "Hello, Bob!",
    attachment: "0xdeadbeef",
  },
};

/** An ERC-2612 Permit, with uint256 values beyond 2^53. */
const permit = {
  domain: {
    name: "USD Coin", version: "2", chainId: 8453, verifyingContract: "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913",
  },
  types: {
    Permit: [
      { name: "owner", type: "address" }, { name: "spender", type: "address" }, { name: "value", type: "uint256" },
      { name: "nonce", type: "uint256" }, { name: "deadline", type: "uint256" },
    ],
  },
  primaryType: "Permit",
  message: {
    owner: "0x0000000000000000000000000000000000000001",
    spender: "0x1111111254EEB25477B68fb85Ed929f73A960582",
    value: 115792089237316195423570985008687907853269984665640564039457584007913129639935n,
    nonce: 7n,
    deadline: 1893456000n,
  },
};

/** Every EIP-712 member type at once: signed ints, bool, small uints, fixed and nested arrays, bytesN, a salt. */
const kitchenSink = {
  domain: {
    name: "Kitchen", version: "1", chainId: 10, verifyingContract: "0x1111111111111111111111111111111111111111",
    salt: `0x${"ab".repeat(32)}`,
  },
  types: {
    Item: [
      { name: "id", type: "bytes32" }, { name: "neg", type: "int256" }, { name: "flag", type: "bool" },
      { name: "small", type: "uint8" }, { name: "fixed", type: "uint16[2]" }, { name: "nested", type: "string[][]" },
      { name: "b4", type: "bytes4" }, { name: "i8", type: "int8" },
    ],
  },
  primaryType: "Item",
  message: {
    id: `0x${"cd".repeat(32)}`, neg: -123456789012345678901234567890n, flag: true, small: 255, fixed: [1, 65535],
    nested: [["a", "b"], [], ["ü"]], b4: "0xdeadbeef", i8: -128,
  },
};

/** A recursive struct type, and a domain with the name alone. */
const tree = {
  domain: { name: "Tree" },
  types: { Node: [{ name: "value", type: "uint256" }, { name: "children", type: "Node[]" }] },
  primaryType: "Node",
  message: {
    value: 1n, children: [{ value: 2n, children: [] }, { value: 3n, children: [{ value: 4n, children: [] }] }],
  },
};

describe("signing with @turnkey/viem, @turnkey/ethers and raw payloads", () => {
  /** Wallet accounts by role, each {address, publicKey}. */
  const accounts = {};
  let privateKey;

  before(async () => {
    const wallet = await sdk.createWallet({
      walletName: unique("signing-wallet"),
      accounts: [
        bip32("CURVE_SECP256K1", "m/44'/60'/0'/0/0", "ADDRESS_FORMAT_ETHEREUM"),
        bip32("CURVE_ED25519", "m/44'/501'/0'/0'", "ADDRESS_FORMAT_SOLANA"),
        bip32("CURVE_P256", "m/0'/0", "ADDRESS_FORMAT_COMPRESSED"),
        bip32("CURVE_SECP256K1", "m/0'/1", "ADDRESS_FORMAT_COMPRESSED"),
      ],
    });
    const { accounts: listed } = await sdk.getWalletAccounts({ walletId: wallet.walletId });
    [accounts.ethereum, accounts.solana, accounts.p256, accounts.secp256k1] = listed;
    accounts.walletId = wallet.walletId;

    const created = await sdk.createPrivateKeys({
      privateKeys: [{
        privateKeyName: unique("signing-key"), curve: "CURVE_SECP256K1", privateKeyTags: [],
        addressFormats: ["ADDRESS_FORMAT_ETHEREUM"],
      }],
    });
    privateKey = (await sdk.getPrivateKey({ privateKeyId: created.privateKeys[0].privateKeyId })).privateKey;
    privateKey.ethereumAddress = privateKey.addresses[0].address;
    assert.equal(publicKeyToAddress(`0x${privateKey.publicKey}`), privateKey.ethereumAddress);
  });

  describe("@turnkey/viem createAccount", () => {
    const signers = [
      ["a wallet account's address, sdk-server client", () => ({ client: sdk, signWith: accounts.ethereum.address })],
      ["a wallet account's address, @turnkey/http client",
        () => ({ client: http, signWith: accounts.ethereum.address })],
      ["a private key id, sdk-server client", () => ({ client: sdk, signWith: privateKey.privateKeyId })],
      ["a private key id, @turnkey/http client", () => ({ client: http, signWith: privateKey.privateKeyId })],
    ];

    for (const [what, config] of signers) {
      test(`signMessage, signTypedData, sign and signAuthorization with ${what}`, async () => {
        const { client, signWith } = config();
        const expected = signWith.startsWith("0x") ? accounts.ethereum.address : privateKey.ethereumAddress;
        const account = await createAccount({ client, organizationId, signWith });
        assert.equal(account.address, expected, "the account's address (looked up for a private key id)");

        const message = `Keyhaven interop ${unique("message")}`;
        const signature = await account.signMessage({ message });
        assert.match(signature, /^0x[0-9a-f]{128}(1b|1c)$/);
        assert.equal(await recoverMessageAddress({ message, signature }), expected);
        assert.ok(await verifyMessage({ address: expected, message, signature }));
        assert.ok(!(await verifyMessage({ address: expected, message: `${message}!`, signature })));

        const raw = await account.signMessage({ message: { raw: "0x00ff10" } });
        assert.equal(await recoverMessageAddress({ message: { raw: "0x00ff10" }, signature: raw }), expected);

        // As applications sign typed data: through a wallet client, whose action adds the EIP712Domain type.
        const walletClient = createWalletClient({
          account, transport: custom({ request: async () => assert.fail("signing needs no RPC") }),
        });
        for (const typed of [mail, permit, kitchenSink, tree]) {
          const typedSignature = await walletClient.signTypedData(typed);
          assert.ok(await verifyTypedData({ ...typed, address: expected, signature: typedSignature }),
            `EIP-712 ${typed.primaryType} verifies`);
          assert.equal(await recoverTypedDataAddress({ ...typed, signature: typedSignature }), expected);
        }
        // The account itself, given the EIP712Domain type as the wallet client would pass it.
        const withDomainType = {
          ...permit, types: { EIP712Domain: getTypesForEIP712Domain({ domain: permit.domain }), ...permit.types },
        };
        const direct = await account.signTypedData(withDomainType);
        assert.equal(await recoverTypedDataAddress({ ...permit, signature: direct }), expected);
        // Without it, viem's serializeTypedData sends an empty domain: the server must hash exactly that.
        const bare = await account.signTypedData(mail);
        assert.equal(await recoverTypedDataAddress({ ...mail, domain: {}, signature: bare }), expected);

        const hash = keccak256(toHex(unique("digest")));
        const hashSignature = await account.sign({ hash });
        assert.equal(await recoverAddress({ hash, signature: hashSignature }), expected);

        const authorization = await account.signAuthorization({
          contractAddress: "0x63c0c19a282a1B52b07dD5a65b58948A07DAE32B", chainId: 11155111, nonce: 42,
        });
        assert.equal(authorization.address, "0x63c0c19a282a1B52b07dD5a65b58948A07DAE32B");
        assert.equal(authorization.chainId, 11155111);
        assert.equal(authorization.nonce, 42);
        assert.ok(authorization.yParity === 0 || authorization.yParity === 1);
        assert.equal(await recoverAuthorizationAddress({ authorization }), expected);
        assert.ok(await verifyAuthorization({ address: expected, authorization }));
        const otherChain = { ...authorization, chainId: 1 };
        assert.notEqual(await recoverAuthorizationAddress({ authorization: otherChain }), expected,
          "the chain id is part of what was signed");
        const anyChain = await account.signAuthorization({
          address: "0x63c0c19a282a1B52b07dD5a65b58948A07DAE32B", chainId: 0, nonce: Number.MAX_SAFE_INTEGER,
        });
        assert.equal(await recoverAuthorizationAddress({ authorization: anyChain }), expected,
          "chain id 0 (any chain) and a large nonce");
      });
    }

    for (const [what, config] of [
      ["a wallet account's address, sdk-server client", () => ({ client: sdk, signWith: accounts.ethereum.address })],
      ["a private key id, @turnkey/http client", () => ({ client: http, signWith: privateKey.privateKeyId })],
    ]) {
      test(`signTransaction (legacy, EIP-155, EIP-2930, EIP-1559, EIP-7702) with ${what}`, async () => {
        const { client, signWith } = config();
        const expected = signWith.startsWith("0x") ? accounts.ethereum.address : privateKey.ethereumAddress;
        const account = await createAccount({ client, organizationId, signWith });
        const authorization = await account.signAuthorization({
          contractAddress: "0x63c0c19a282a1B52b07dD5a65b58948A07DAE32B", chainId: 1, nonce: 8,
        });
        const common = { to: "0x000000000000000000000000000000000000dEaD", value: 10n ** 18n + 1n, data: "0xc0ffee" };
        const transactions = [
          { type: "legacy", nonce: 0, gas: 21000n, gasPrice: 2n * 10n ** 9n, ...common }, // pre-EIP-155: v 27/28
          { type: "legacy", chainId: 1, nonce: 1, gas: 21000n, gasPrice: 2n * 10n ** 9n, ...common },
          {
            type: "eip2930", chainId: 137, nonce: 2, gas: 50000n, gasPrice: 30n * 10n ** 9n, ...common,
            accessList: [{
              address: "0x1111111111111111111111111111111111111111",
              storageKeys: [`0x${"00".repeat(31)}01`],
            }],
          },
          {
            type: "eip1559", chainId: 8453, nonce: 3, gas: 60000n, maxFeePerGas: 10n ** 10n,
            maxPriorityFeePerGas: 10n ** 9n, ...common,
          },
          {
            type: "eip7702", chainId: 1, nonce: 9, gas: 100000n, maxFeePerGas: 10n ** 10n,
            maxPriorityFeePerGas: 10n ** 9n, ...common, authorizationList: [authorization],
          },
        ];
        for (const transaction of transactions) {
          const signed = await account.signTransaction(transaction);
          assert.equal(await recoverTransactionAddress({ serializedTransaction: signed }), expected,
            `${transaction.type} ${transaction.chainId ?? "without chain id"} recovers the signer`);
          const parsed = parseTransaction(signed);
          assert.equal(parsed.type, transaction.type);
          assert.equal(parsed.to, transaction.to.toLowerCase(), `${transaction.type}: to is kept`);
          for (const field of ["value", "data", "nonce", "gas", "chainId", "gasPrice", "maxFeePerGas"]) {
            if (transaction[field] !== undefined) {
              assert.equal(parsed[field], transaction[field], `${transaction.type}: ${field} is kept`);
            }
          }
          if (transaction.accessList) {
            assert.deepEqual(parsed.accessList, transaction.accessList);
          }
          if (transaction.authorizationList) {
            assert.equal(await recoverAuthorizationAddress({ authorization: parsed.authorizationList[0] }), expected);
          }
          if (transaction.type === "legacy" && transaction.chainId === undefined) {
            const { v } = parsed;
            assert.ok(v === 27n || v === 28n, `an unprotected legacy transaction has v 27/28: ${v}`);
          } else if (transaction.type === "legacy") {
            assert.ok(parsed.v === 37n || parsed.v === 38n, `EIP-155 on chain 1 puts v at 37/38: ${parsed.v}`);
          }
        }
      });
    }

    test("a user without permission to sign gets viem's TurnkeyActivityError for the FAILED activity", async () => {
      const key = newKeyPair();
      await sdk.createUsers({
        users: [{
          userName: unique("no-permission"), apiKeys: [apiKeyParams("key", key)], authenticators: [],
          oauthProviders: [], userTags: [],
        }],
      });
      const member = sdkClientFor(key);
      const account = await createAccount({ client: member, organizationId, signWith: accounts.ethereum.address });
      let activityId;
      await assert.rejects(account.signMessage({ message: "not mine to sign" }), (error) => {
        assert.equal(error.name, "TurnkeyActivityError", error.stack);
        assert.equal(error.activityStatus, "ACTIVITY_STATUS_FAILED");
        activityId = error.activityId;
        return true;
      });
      const { activity } = await sdk.getActivity({ activityId });
      assert.equal(activity.type, "ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2");
      assert.ok(activity.failure.details.some((d) => d.turnkeyErrorCode === "REQUEST_NOT_AUTHORIZED"));
      assert.deepEqual(activity.result, {}, "no signature in a failed activity");

      const signer = new TurnkeySigner({ client: member, organizationId, signWith: accounts.ethereum.address });
      await assert.rejects(signer.signMessage("not mine to sign"), (error) => {
        assert.equal(error.name, "TurnkeyActivityError", error.stack);
        assert.equal(error.activityStatus, "ACTIVITY_STATUS_FAILED");
        return true;
      });
    });

    test("an unknown signWith is an error from viem's wrapper", async () => {
      const account = await createAccount({
        client: sdk, organizationId, signWith: "0x000000000000000000000000000000000000dEaD",
      });
      await assert.rejects(account.signMessage({ message: "x" }), (error) => {
        assert.equal(error.name, "TurnkeyActivityError", error.stack);
        assert.match(error.message, /Turnkey error 5/);
        return true;
      });
      // A private key id that names nothing: createAccount's get_private_key look-up fails.
      await assertRequestError(createAccount({ client: sdk, organizationId, signWith: crypto.randomUUID() }),
        { code: 5 });
    });
  });

  describe("@turnkey/ethers TurnkeySigner", () => {
    for (const [what, config] of [
      ["a wallet account's address, sdk-server client", () => ({ client: sdk, signWith: accounts.ethereum.address })],
      ["a private key id, @turnkey/http client", () => ({ client: http, signWith: privateKey.privateKeyId })],
    ]) {
      test(`signMessage and signTypedData with ${what}, verified with ethers`, async () => {
        const { client, signWith } = config();
        const expected = signWith.startsWith("0x") ? accounts.ethereum.address : privateKey.ethereumAddress;
        const signer = new TurnkeySigner({ client, organizationId, signWith });
        assert.equal(await signer.getAddress(), expected);

        const message = `Keyhaven ethers interop ${unique("message")}`;
        const signature = await signer.signMessage(message);
        assert.equal(ethers.verifyMessage(message, signature), expected);
        const bytes = ethers.getBytes("0xc0ffee00");
        assert.equal(ethers.verifyMessage(bytes, await signer.signMessage(bytes)), expected);

        for (const typed of [mail, permit, kitchenSink]) {
          const typedSignature = await signer.signTypedData(typed.domain, typed.types, typed.message);
          assert.equal(ethers.verifyTypedData(typed.domain, typed.types, typed.message, typedSignature), expected,
            `EIP-712 ${typed.primaryType} verifies`);
        }
      });
    }

    test("signTransaction (EIP-1559 and EIP-155 legacy), checked with ethers' Transaction", async () => {
      const signer = new TurnkeySigner({ client: sdk, organizationId, signWith: accounts.ethereum.address });
      for (const request of [
        {
          type: 2, chainId: 10, nonce: 5, to: "0x000000000000000000000000000000000000dEaD", value: 12345n,
          gasLimit: 21000n, maxFeePerGas: 3n * 10n ** 9n, maxPriorityFeePerGas: 10n ** 9n, data: "0x",
        },
        {
          type: 0, chainId: 56, nonce: 6, to: "0x000000000000000000000000000000000000dEaD", value: 1n,
          gasLimit: 21000n, gasPrice: 5n * 10n ** 9n, data: "0xabcdef",
        },
      ]) {
        const signed = await signer.signTransaction({ ...request, from: accounts.ethereum.address });
        const transaction = ethers.Transaction.from(signed);
        assert.equal(transaction.from, accounts.ethereum.address, `type ${request.type} recovers the signer`);
        assert.equal(transaction.type, request.type);
        assert.equal(transaction.chainId, BigInt(request.chainId));
        assert.equal(transaction.nonce, request.nonce);
        assert.equal(transaction.value, request.value);
        assert.equal(transaction.data, request.data);
        assert.equal(transaction.to, request.to);
      }
    });
  });

  describe("signRawPayload and signRawPayloads through @turnkey/sdk-server", () => {
    const signRawPayload = async (params) => {
      const response = await sdk.signRawPayload(params);
      const result = assertCompleted(response.activity, {
        type: "ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2", intentKey: "signRawPayloadIntentV2",
        resultKey: "signRawPayloadResult",
      });
      assert.deepEqual({ r: response.r, s: response.s, v: response.v }, result);
      assert.match(result.r, /^[0-9a-f]{64}$/);
      assert.match(result.s, /^[0-9a-f]{64}$/);
      assert.match(result.v, /^0[01]$/);
      return result;
    };

    test("Ed25519 (Solana account, HASH_FUNCTION_NOT_APPLICABLE) verifies with @noble/curves/ed25519", async () => {
      const publicKey = hexToBytes(accounts.solana.publicKey);
      const payload = crypto.randomBytes(100);
      const signature = await signRawPayload({
        signWith: accounts.solana.address, payload: bytesToHex(payload), encoding: "PAYLOAD_ENCODING_HEXADECIMAL",
        hashFunction: "HASH_FUNCTION_NOT_APPLICABLE",
      });
      assert.equal(signature.v, "00");
      const rs = hexToBytes(signature.r + signature.s);
      assert.ok(ed25519.verify(rs, payload, publicKey));
      assert.ok(!ed25519.verify(rs, payload.subarray(1), publicKey));

      const text = `Solana message ${unique("text")} ✓`;
      const textSignature = await signRawPayload({
        signWith: accounts.solana.address, payload: text, encoding: "PAYLOAD_ENCODING_TEXT_UTF8",
        hashFunction: "HASH_FUNCTION_NOT_APPLICABLE",
      });
      assert.ok(ed25519.verify(hexToBytes(textSignature.r + textSignature.s), new TextEncoder().encode(text),
        publicKey));

      const again = await signRawPayload({
        signWith: accounts.solana.address, payload: text, encoding: "PAYLOAD_ENCODING_TEXT_UTF8",
        hashFunction: "HASH_FUNCTION_NOT_APPLICABLE",
      });
      assert.deepEqual(again, textSignature, "Ed25519 signatures are deterministic (RFC 8032)");
    });

    test("P-256 (CURVE_P256 account, SHA256) verifies with @noble/curves/p256, and v recovers the key", async () => {
      assert.equal(accounts.p256.curve, "CURVE_P256");
      assert.equal(accounts.p256.address, accounts.p256.publicKey, "ADDRESS_FORMAT_COMPRESSED is the public key");
      const message = new TextEncoder().encode(`P-256 ${unique("message")}`);
      const signature = await signRawPayload({
        signWith: accounts.p256.address, payload: bytesToHex(message), encoding: "PAYLOAD_ENCODING_HEXADECIMAL",
        hashFunction: "HASH_FUNCTION_SHA256",
      });
      const digest = sha256(message);
      const rs = signature.r + signature.s;
      assert.ok(p256.verify(rs, digest, accounts.p256.publicKey, { lowS: false }));
      assert.ok(!p256.verify(rs, sha256(message.subarray(1)), accounts.p256.publicKey, { lowS: false }));
      const recovered = p256.Signature.fromCompact(rs).addRecoveryBit(Number(signature.v)).recoverPublicKey(digest);
      assert.equal(recovered.toHex(true), accounts.p256.publicKey);
      // node's own crypto agrees (DER-encoded ECDSA over SHA-256 of the message).
      const spki = crypto.createPublicKey({
        key: Buffer.concat([Buffer.from("3059301306072a8648ce3d020106082a8648ce3d030107034200", "hex"),
          Buffer.from(p256.ProjectivePoint.fromHex(accounts.p256.publicKey).toRawBytes(false))]),
        format: "der", type: "spki",
      });
      assert.ok(crypto.verify("sha256", message, spki, Buffer.from(p256.Signature.fromCompact(rs).toDERRawBytes())));
    });

    test("secp256k1 with KECCAK256 and with NO_OP recovers the account's key with @noble/curves/secp256k1",
      async () => {
        const payload = `0x${bytesToHex(crypto.randomBytes(77))}`;
        const signature = await signRawPayload({
          signWith: accounts.secp256k1.address, payload: payload.slice(2), encoding: "PAYLOAD_ENCODING_HEXADECIMAL",
          hashFunction: "HASH_FUNCTION_KECCAK256",
        });
        const digest = hexToBytes(keccak256(payload));
        const sig = new secp256k1.Signature(BigInt(`0x${signature.r}`), BigInt(`0x${signature.s}`));
        assert.ok(!sig.hasHighS(), "s is in the lower half (as Ethereum requires)");
        assert.ok(secp256k1.verify(sig, digest, accounts.secp256k1.publicKey));
        assert.equal(sig.addRecoveryBit(Number(signature.v)).recoverPublicKey(digest).toHex(true),
          accounts.secp256k1.publicKey);

        const hash = hashMessage("pre-hashed");
        const noOp = await signRawPayload({
          signWith: accounts.ethereum.address, payload: hash.slice(2), encoding: "PAYLOAD_ENCODING_HEXADECIMAL",
          hashFunction: "HASH_FUNCTION_NO_OP",
        });
        const noOpSig = new secp256k1.Signature(BigInt(`0x${noOp.r}`), BigInt(`0x${noOp.s}`))
          .addRecoveryBit(Number(noOp.v));
        assert.equal(noOpSig.recoverPublicKey(hexToBytes(hash)).toHex(true), accounts.ethereum.publicKey);

        // A private key signs by its id and by its address alike.
        for (const signWith of [privateKey.privateKeyId, privateKey.ethereumAddress]) {
          const byKey = await signRawPayload({
            signWith, payload: hash.slice(2), encoding: "PAYLOAD_ENCODING_HEXADECIMAL",
            hashFunction: "HASH_FUNCTION_NO_OP",
          });
          const recovered = new secp256k1.Signature(BigInt(`0x${byKey.r}`), BigInt(`0x${byKey.s}`))
            .addRecoveryBit(Number(byKey.v)).recoverPublicKey(hexToBytes(hash));
          assert.equal(recovered.toHex(false), privateKey.publicKey);
        }
      });

    test("signRawPayloads signs every payload, in order, each with a low s and the right recovery id", async () => {
      const payloads = Array.from({ length: 24 }, () => bytesToHex(crypto.randomBytes(40)));
      const response = await sdk.signRawPayloads({
        signWith: accounts.ethereum.address, payloads, encoding: "PAYLOAD_ENCODING_HEXADECIMAL",
        hashFunction: "HASH_FUNCTION_KECCAK256",
      });
      const result = assertCompleted(response.activity, {
        type: "ACTIVITY_TYPE_SIGN_RAW_PAYLOADS", intentKey: "signRawPayloadsIntent", resultKey: "signRawPayloadsResult",
      });
      assert.deepEqual(response.signatures, result.signatures);
      assert.equal(result.signatures.length, payloads.length);
      result.signatures.forEach((signature, i) => {
        const digest = hexToBytes(keccak256(`0x${payloads[i]}`));
        const sig = new secp256k1.Signature(BigInt(`0x${signature.r}`), BigInt(`0x${signature.s}`));
        // With s normalised into the lower half, 24 signatures all low by chance would be a 1 in 2^24 event.
        assert.ok(!sig.hasHighS(), `signature ${i} has a low s`);
        const recovered = sig.addRecoveryBit(Number(signature.v)).recoverPublicKey(digest);
        assert.equal(recovered.toHex(true), accounts.ethereum.publicKey, `signature ${i} is over payload ${i}`);
      });

      const ed = await sdk.signRawPayloads({
        signWith: accounts.solana.address, payloads: ["aa", "bbcc"], encoding: "PAYLOAD_ENCODING_HEXADECIMAL",
        hashFunction: "HASH_FUNCTION_NOT_APPLICABLE",
      });
      assert.ok(ed.signatures.every((signature, i) => ed25519.verify(hexToBytes(signature.r + signature.s),
        hexToBytes(["aa", "bbcc"][i]), hexToBytes(accounts.solana.publicKey))));
    });

    test("a hash function that does not fit the curve, a bad payload and an unknown signer are errors", async () => {
      const base = { encoding: "PAYLOAD_ENCODING_HEXADECIMAL" };
      const invalid = { code: 3, turnkeyErrorCode: "REQUEST_INVALID" };
      await assertRequestError(sdk.signRawPayload({
        ...base, signWith: accounts.ethereum.address, payload: "00", hashFunction: "HASH_FUNCTION_NOT_APPLICABLE",
      }), invalid);
      await assertRequestError(sdk.signRawPayload({
        ...base, signWith: accounts.solana.address, payload: "00", hashFunction: "HASH_FUNCTION_SHA256",
      }), invalid);
      await assertRequestError(sdk.signRawPayload({
        ...base, signWith: accounts.ethereum.address, payload: "00ff", hashFunction: "HASH_FUNCTION_NO_OP",
      }), invalid);
      await assertRequestError(sdk.signRawPayload({
        ...base, signWith: accounts.ethereum.address, payload: "not hex", hashFunction: "HASH_FUNCTION_KECCAK256",
      }), invalid);
      await assertRequestError(sdk.signRawPayload({
        signWith: accounts.solana.address, payload: JSON.stringify(mail), encoding: "PAYLOAD_ENCODING_EIP712",
        hashFunction: "HASH_FUNCTION_NOT_APPLICABLE",
      }), invalid);
      await assertRequestError(sdk.signRawPayload({
        ...base, signWith: "0x000000000000000000000000000000000000dEaD", payload: "00",
        hashFunction: "HASH_FUNCTION_KECCAK256",
      }), { code: 5 });
      await assertRequestError(sdk.signRawPayloads({
        ...base, signWith: accounts.ethereum.address, payloads: [], hashFunction: "HASH_FUNCTION_KECCAK256",
      }), invalid);
    });

    test("signTransaction through the SDK: the activity, and what it refuses", async () => {
      const unsigned = serializeTransaction({
        type: "eip1559", chainId: 1, nonce: 0, to: "0x000000000000000000000000000000000000dEaD", value: 1n,
        gas: 21000n, maxFeePerGas: 1n, maxPriorityFeePerGas: 1n,
      });
      const response = await sdk.signTransaction({
        signWith: accounts.ethereum.address, type: "TRANSACTION_TYPE_ETHEREUM", unsignedTransaction: unsigned.slice(2),
      });
      const result = assertCompleted(response.activity, {
        type: "ACTIVITY_TYPE_SIGN_TRANSACTION_V2", intentKey: "signTransactionIntentV2",
        resultKey: "signTransactionResult",
      });
      assert.equal(response.signedTransaction, result.signedTransaction);
      assert.match(result.signedTransaction, /^02[0-9a-f]+$/, "hex without 0x, as the signers expect");
      assert.equal(await recoverTransactionAddress({ serializedTransaction: `0x${result.signedTransaction}` }),
        accounts.ethereum.address);

      const base = { signWith: accounts.ethereum.address, type: "TRANSACTION_TYPE_ETHEREUM" };
      await assertRequestError(sdk.signTransaction({ ...base, unsignedTransaction: "deadbeef" }),
        { code: 3, turnkeyErrorCode: "REQUEST_INVALID" });
      await assertRequestError(sdk.signTransaction({ ...base, unsignedTransaction: result.signedTransaction }),
        { code: 3, turnkeyErrorCode: "REQUEST_INVALID" }); // already signed: Keyhaven reads the RLP strictly
      await assertRequestError(sdk.signTransaction({
        ...base, signWith: accounts.solana.address, unsignedTransaction: unsigned.slice(2),
      }), { code: 3, turnkeyErrorCode: "REQUEST_INVALID", message: /SECP256K1/ });
      await assertRequestError(sdk.signTransaction({
        signWith: accounts.solana.address, type: "TRANSACTION_TYPE_SOLANA", unsignedTransaction: "00",
      }), {
        code: 3, turnkeyErrorCode: "REQUEST_INVALID",
        message: /not an unsigned Solana transaction: message header: truncated at byte offset 1/,
      });
      await assertRequestError(sdk.signTransaction({
        ...base, type: "TRANSACTION_TYPE_TEMPO", unsignedTransaction: "76c0",
      }), { code: 12, message: /sign_transaction does not support TRANSACTION_TYPE_TEMPO yet/ });
    });

    test("a deleted wallet's accounts can no longer sign", async () => {
      await sdk.deleteWallets({ walletIds: [accounts.walletId], deleteWithoutExport: true });
      await assertRequestError(sdk.signRawPayload({
        signWith: accounts.ethereum.address, payload: "00", encoding: "PAYLOAD_ENCODING_HEXADECIMAL",
        hashFunction: "HASH_FUNCTION_KECCAK256",
      }), { code: 5 });
      await sdk.deletePrivateKeys({ privateKeyIds: [privateKey.privateKeyId], deleteWithoutExport: true });
      await assertRequestError(sdk.signRawPayload({
        signWith: privateKey.privateKeyId, payload: "00", encoding: "PAYLOAD_ENCODING_HEXADECIMAL",
        hashFunction: "HASH_FUNCTION_KECCAK256",
      }), { code: 5 });
    });
  });
});
