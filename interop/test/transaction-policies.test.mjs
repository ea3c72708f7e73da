// Policies on what a transaction does (eth.tx, tron.tx, solana.tx), for a user outside the root quorum, through the
// official signers: @turnkey/viem and @turnkey/ethers (how each surfaces an activity a policy failed), the
// sdk-server client for Tron, @turnkey/solana for Solana. Smart-contract interfaces (create, get, list, delete
// through sdk-server) give eth.tx.function_name and contract_call_args for an ERC-20 transfer encoded by viem, and
// solana.tx's parsed_instruction_data for an instruction of a program with an uploaded Anchor IDL. A DENY
// that reads what Keyhaven cannot read (call arguments without an ABI) fails closed; a DENY about something the
// transaction does not have does not apply. Each test writes its own policies and deletes them again.
import assert from "node:assert/strict";
import crypto from "node:crypto";
import { afterEach, before, describe, test } from "node:test";
import { createAccount } from "@turnkey/viem";
import { TurnkeySigner as EthersSigner } from "@turnkey/ethers";
import { TurnkeySigner as SolanaSigner } from "@turnkey/solana";
import { Transaction as EthersTransaction } from "ethers";
import {
  encodeFunctionData, erc20Abi, getAddress, parseEther, recoverTransactionAddress, serializeTransaction,
} from "viem";
import {
  Keypair,
  LAMPORTS_PER_SOL,
  PublicKey,
  SystemProgram,
  Transaction as SolanaTransaction,
  TransactionInstruction,
} from "@solana/web3.js";
import { TronWeb, Trx } from "tronweb";
import bs58 from "bs58";
import { assertCompleted, policySandbox } from "../lib/keyhaven.mjs";

const bip32 = (curve, path, addressFormat) => ({ curve, pathFormat: "PATH_FORMAT_BIP32", path, addressFormat });

/** A token contract (Sepolia USDC's address) and two recipients; none needs to exist, nothing is broadcast. */
const token = "0x1c7D4B196Cb0C7B01d743Fbc6116a902379C7238";
const allowedRecipient = getAddress("0x000000000000000000000000000000000000beef");
const otherRecipient = getAddress("0x000000000000000000000000000000000000cafe");
const contractWithoutAbi = "0x2222222222222222222222222222222222222222";

const eip1559 = (fields) => ({
  type: "eip1559", chainId: 11155111, nonce: 0, gas: 60000n, maxFeePerGas: 10n ** 9n, maxPriorityFeePerGas: 1n,
  to: "0x000000000000000000000000000000000000dEaD", value: 0n, ...fields,
});
const erc20Call = (functionName, args) => encodeFunctionData({ abi: erc20Abi, functionName, args });

/** TronWeb's offline builder: a block header in the options makes it build locally instead of asking a node. */
const tronWeb = new TronWeb({ fullHost: "http://127.0.0.1:9" });
const blockHeader = {
  ref_block_bytes: "3f8a", ref_block_hash: "7d1c2b3a4f5e6d7c", expiration: 1764122460000, timestamp: 1764122400000,
};
/** USDT on Nile, and the address of a fixed, never funded key. */
const usdtNile = "TXYZopYRdj2D9XRtbG411XZZ3kM5VkAeBf";
const tronReceiver = TronWeb.address.fromPrivateKey(
  crypto.createHash("sha256").update("keyhaven tron receiver").digest("hex"));

describe("transaction policies for a user outside the root quorum", () => {
  let sandbox;
  let ethereum;
  let tron;
  let solana;

  before(async () => {
    sandbox = await policySandbox("tx-policies", [
      bip32("CURVE_SECP256K1", "m/44'/60'/0'/0/0", "ADDRESS_FORMAT_ETHEREUM"),
      bip32("CURVE_SECP256K1", "m/44'/195'/0'/0/0", "ADDRESS_FORMAT_TRON"),
      bip32("CURVE_ED25519", "m/44'/501'/0'/0'", "ADDRESS_FORMAT_SOLANA"),
    ]);
    [ethereum, tron, solana] = sandbox.addresses;
  });

  // Every test starts from no policy and no smart-contract interface, even after one failed halfway.
  afterEach(async () => {
    for (const { policyId } of (await sandbox.admin.getPolicies()).policies) {
      await sandbox.admin.deletePolicy({ policyId });
    }
    for (const { smartContractInterfaceId } of
      (await sandbox.admin.getSmartContractInterfaces({})).smartContractInterfaces) {
      await sandbox.admin.deleteSmartContractInterface({ smartContractInterfaceId });
    }
  });

  async function createPolicy(policy) {
    const response = await sandbox.admin.createPolicy({ notes: "", ...policy });
    assertCompleted(response.activity, {
      type: "ACTIVITY_TYPE_CREATE_POLICY_V3", orgId: sandbox.orgId, intentKey: "createPolicyIntentV3",
      resultKey: "createPolicyResult",
    });
    return response.policyId;
  }

  /** An ALLOW for every signature by the member, for the DENY policies beside it to narrow. */
  const allowMemberToSign = () => createPolicy({
    policyName: "the member signs", effect: "EFFECT_ALLOW", condition: "activity.action == 'SIGN'",
    consensus: `approvers.any(user, user.id == '${sandbox.member.id}')`,
  });

  async function deletePolicies(...policyIds) {
    for (const policyId of policyIds) {
      assert.equal((await sandbox.admin.deletePolicy({ policyId })).policyId, policyId);
    }
  }

  /** The failed activity `activityId` as the admin sees it: its failure, and the outcome of each policy. */
  async function failureOf(activityId) {
    const { activity } = await sandbox.admin.getActivity({ activityId });
    assert.equal(activity.status, "ACTIVITY_STATUS_FAILED");
    const { policyEvaluations } = await sandbox.admin.getPolicyEvaluations({ activityId });
    assert.equal(policyEvaluations.length, 1);
    return { failure: activity.failure, evaluations: policyEvaluations[0].policyEvaluations };
  }

  /** Checks that `promise` failed with a signer's TurnkeyActivityError for a FAILED activity; returns its id. */
  async function rejectedActivity(promise, errorMessage = /Expected COMPLETED status, got ACTIVITY_STATUS_FAILED/) {
    let activityId;
    await assert.rejects(promise, (error) => {
      assert.equal(error.name, "TurnkeyActivityError", error.stack);
      assert.equal(error.activityStatus, "ACTIVITY_STATUS_FAILED");
      assert.match(error.message, errorMessage);
      activityId = error.activityId;
      return true;
    });
    assert.ok(activityId, "the error names the failed activity");
    return activityId;
  }

  test("DENY eth.tx.value >= 1 ETH beside a broad ALLOW: @turnkey/viem and @turnkey/ethers refuse 1 and 2 ETH, "
    + "sign 0.5 ETH", async () => {
    const allowId = await allowMemberToSign();
    const denyId = await createPolicy({
      policyName: "at most 1 ETH", effect: "EFFECT_DENY", condition: "eth.tx.value >= 1000000000000000000",
    });
    const deniedOutcomes = [
      { policyId: allowId, outcome: "OUTCOME_ALLOW" },
      { policyId: denyId, outcome: "OUTCOME_DENY_EXPLICIT" },
      { outcome: "OUTCOME_DENY_EXPLICIT" },
    ];

    const viemAccount = await createAccount({
      client: sandbox.member.sdk, organizationId: sandbox.orgId, signWith: ethereum,
    });
    for (const value of [parseEther("2"), parseEther("1")]) {
      const activityId = await rejectedActivity(viemAccount.signTransaction(eip1559({ value })));
      const { failure, evaluations } = await failureOf(activityId);
      assert.equal(failure.code, 7);
      assert.equal(failure.message, `request denied by policy ${denyId}`);
      assert.deepEqual(failure.details, [{
        "@type": "type.googleapis.com/errors.v1.TurnkeyErrorDetail", turnkeyErrorCode: "REQUEST_NOT_AUTHORIZED",
      }]);
      assert.deepEqual(evaluations, deniedOutcomes);
    }
    const signedByViem = await viemAccount.signTransaction(eip1559({ value: parseEther("0.5") }));
    assert.equal(await recoverTransactionAddress({ serializedTransaction: signedByViem }), ethereum);

    const ethersSigner = new EthersSigner({
      client: sandbox.member.sdk, organizationId: sandbox.orgId, signWith: ethereum,
    });
    const ethersTransaction = (value) => ({
      type: 2, chainId: 11155111, nonce: 1, to: "0x000000000000000000000000000000000000dEaD", value, gasLimit: 21000n,
      maxFeePerGas: 10n ** 9n, maxPriorityFeePerGas: 1n,
    });
    const deniedByEthers = await rejectedActivity(ethersSigner.signTransaction(ethersTransaction(parseEther("2"))));
    assert.deepEqual((await failureOf(deniedByEthers)).evaluations, deniedOutcomes);
    const signedByEthers = EthersTransaction.from(await ethersSigner.signTransaction(
      ethersTransaction(parseEther("0.5"))));
    assert.equal(signedByEthers.from, ethereum);
    assert.equal(signedByEthers.value, parseEther("0.5"));

    await deletePolicies(denyId, allowId);
  });

  test("an ALLOW on eth.tx.function_name and contract_call_args, read through an uploaded ERC-20 ABI", async () => {
    const abi = JSON.stringify(erc20Abi);
    const created = await sandbox.admin.createSmartContractInterface({
      smartContractAddress: token, smartContractInterface: abi, type: "SMART_CONTRACT_INTERFACE_TYPE_ETHEREUM",
      label: "USDC (Sepolia)", notes: "viem's erc20Abi",
    });
    const result = assertCompleted(created.activity, {
      type: "ACTIVITY_TYPE_CREATE_SMART_CONTRACT_INTERFACE", orgId: sandbox.orgId,
      intentKey: "createSmartContractInterfaceIntent", resultKey: "createSmartContractInterfaceResult",
    });
    const sciId = created.smartContractInterfaceId;
    assert.equal(result.smartContractInterfaceId, sciId);
    const { smartContractInterface: stored } = await sandbox.admin.getSmartContractInterface({
      smartContractInterfaceId: sciId,
    });
    const { createdAt, updatedAt, ...fields } = stored;
    assert.deepEqual(fields, {
      organizationId: sandbox.orgId, smartContractInterfaceId: sciId, smartContractAddress: token,
      smartContractInterface: abi, type: "ETHEREUM", label: "USDC (Sepolia)", notes: "viem's erc20Abi",
    });
    assert.match(createdAt.seconds, /^\d+$/);
    assert.deepEqual(updatedAt, createdAt);
    const { smartContractInterfaces } = await sandbox.admin.getSmartContractInterfaces({});
    assert.deepEqual(smartContractInterfaces.map((s) => s.smartContractInterfaceId), [sciId]);

    // viem's erc20Abi names transfer's arguments (recipient, amount).
    const allowId = await createPolicy({
      policyName: "USDC to the allowed recipient", effect: "EFFECT_ALLOW",
      consensus: `approvers.any(user, user.id == '${sandbox.member.id}')`,
      condition: "eth.tx.function_name == 'transfer' "
        + `&& eth.tx.contract_call_args['recipient'] == '${allowedRecipient}'`,
    });
    const sign = (data) => sandbox.member.sdk.signTransaction({
      signWith: ethereum, type: "TRANSACTION_TYPE_ETHEREUM",
      unsignedTransaction: serializeTransaction(eip1559({ to: token, data })).slice(2),
    });

    const allowed = await sign(erc20Call("transfer", [allowedRecipient, 5_000_000n]));
    assert.equal(allowed.activity.status, "ACTIVITY_STATUS_COMPLETED", JSON.stringify(allowed.activity.failure));
    assert.equal(await recoverTransactionAddress({ serializedTransaction: `0x${allowed.signedTransaction}` }),
      ethereum);

    const toAnother = await sign(erc20Call("transfer", [otherRecipient, 5_000_000n]));
    assert.equal(toAnother.activity.status, "ACTIVITY_STATUS_FAILED", "sdk-server returns the failed activity");
    assert.equal(toAnother.signedTransaction, undefined);
    assert.deepEqual((await failureOf(toAnother.activity.id)).evaluations, [
      { policyId: allowId, outcome: "OUTCOME_DENY_IMPLICIT" }, { outcome: "OUTCOME_DENY_IMPLICIT" },
    ]);
    // approve(spender, amount) has no 'recipient': as Turnkey documents, the policy language does not short-circuit,
    // so the missing argument makes the whole ALLOW an error, which allows nothing.
    const approval = await sign(erc20Call("approve", [allowedRecipient, 5_000_000n]));
    assert.equal(approval.activity.status, "ACTIVITY_STATUS_FAILED");
    assert.deepEqual((await failureOf(approval.activity.id)).evaluations, [
      {
        policyId: allowId, outcome: "OUTCOME_ERROR",
        error: "condition: MISSING_FIELD: missing field 'recipient' on 'eth.tx.contract_call_args' at column 64",
      },
      { outcome: "OUTCOME_DENY_IMPLICIT" },
    ]);

    const deleted = await sandbox.admin.deleteSmartContractInterface({ smartContractInterfaceId: sciId });
    assert.equal(deleted.smartContractInterfaceId, sciId);
    assert.deepEqual((await sandbox.admin.getSmartContractInterfaces({})).smartContractInterfaces, []);
    // Without the ABI the ALLOW cannot be evaluated, and so allows nothing.
    const withoutAbi = await sign(erc20Call("transfer", [allowedRecipient, 5_000_000n]));
    assert.equal(withoutAbi.activity.status, "ACTIVITY_STATUS_FAILED");
    assert.deepEqual((await failureOf(withoutAbi.activity.id)).evaluations, [
      {
        policyId: allowId, outcome: "OUTCOME_ERROR",
        error: "condition: UNREADABLE: cannot read 'eth.tx.function_name': no smart contract interface (ABI) was "
          + `uploaded for ${token.toLowerCase()} at column 22`,
      },
      { outcome: "OUTCOME_DENY_IMPLICIT" },
    ]);

    await deletePolicies(allowId);
  });

  test("a DENY reading contract_call_args fails closed on a contract without an ABI, and does not apply to a "
    + "plain transfer", async () => {
    const { smartContractInterfaceId } = await sandbox.admin.createSmartContractInterface({
      smartContractAddress: token, smartContractInterface: JSON.stringify(erc20Abi),
      type: "SMART_CONTRACT_INTERFACE_TYPE_ETHEREUM", label: "USDC (Sepolia)",
    });
    const allowId = await allowMemberToSign();
    const denyId = await createPolicy({
      policyName: "small token amounts", effect: "EFFECT_DENY",
      condition: "eth.tx.contract_call_args['amount'] > 1000000",
    });
    const account = await createAccount({
      client: sandbox.member.sdk, organizationId: sandbox.orgId, signWith: ethereum,
    });

    const small = await account.signTransaction(eip1559({
      to: token, data: erc20Call("transfer", [otherRecipient, 5n]),
    }));
    assert.equal(await recoverTransactionAddress({ serializedTransaction: small }), ethereum);

    const large = await rejectedActivity(account.signTransaction(eip1559({
      to: token, data: erc20Call("transfer", [otherRecipient, 1_000_001n]),
    })));
    assert.equal((await failureOf(large)).failure.message, `request denied by policy ${denyId}`);

    const unknownContract = await rejectedActivity(account.signTransaction(eip1559({
      to: contractWithoutAbi, data: erc20Call("transfer", [otherRecipient, 5n]),
    })));
    const { failure, evaluations } = await failureOf(unknownContract);
    const why = "condition: UNREADABLE: cannot read 'eth.tx.contract_call_args': no smart contract interface (ABI) "
      + `was uploaded for ${contractWithoutAbi} at column 26`;
    assert.equal(failure.code, 7);
    assert.equal(failure.message,
      `DENY policy ${denyId} could not be evaluated (${why}), and a DENY that cannot be evaluated denies`);
    assert.deepEqual(evaluations, [
      { policyId: allowId, outcome: "OUTCOME_ALLOW" },
      { policyId: denyId, outcome: "OUTCOME_ERROR", error: why, failsClosed: true },
      { outcome: "OUTCOME_DENY_EXPLICIT" },
    ]);

    const plain = await account.signTransaction(eip1559({ to: otherRecipient, value: 1n }));
    assert.equal(await recoverTransactionAddress({ serializedTransaction: plain }), ethereum,
      "a transfer without call data has no call arguments: the DENY does not apply");

    await deletePolicies(denyId, allowId);
    await sandbox.admin.deleteSmartContractInterface({ smartContractInterfaceId });
  });

  test("create_policy refuses a transaction field Keyhaven never binds", async () => {
    await assert.rejects(sandbox.admin.createPolicy({
      policyName: "no such field", effect: "EFFECT_DENY", condition: "eth.tx.colour == 'red'", notes: "",
    }), (error) => {
      assert.equal(error.name, "TurnkeyRequestError");
      assert.equal(error.code, 3);
      assert.match(error.message, /invalid policy condition: 'eth.tx' has no field 'colour' at column 8/);
      return true;
    });
  });

  test("DENY tron.tx.contract[0].amount > 1 TRX: 2 TRX is refused, 0.5 TRX and a TRC-20 transfer are signed",
    async () => {
      const allowId = await allowMemberToSign();
      const denyId = await createPolicy({
        policyName: "at most 1 TRX", effect: "EFFECT_DENY", condition: "tron.tx.contract[0].amount > 1000000",
      });
      const sign = (tx) => sandbox.member.sdk.signTransaction({
        signWith: tron, type: "TRANSACTION_TYPE_TRON", unsignedTransaction: tx.raw_data_hex,
      });
      const signerOf = (tx, signedHex) => Trx.ecRecover({ ...tx, signature: [signedHex.slice(-130)] });

      const sendTrx = (sun) => tronWeb.transactionBuilder.sendTrx(tronReceiver, sun, tron, { blockHeader });
      const tooMuch = await sign(await sendTrx(2_000_000));
      assert.equal(tooMuch.activity.status, "ACTIVITY_STATUS_FAILED");
      const { failure, evaluations } = await failureOf(tooMuch.activity.id);
      assert.equal(failure.message, `request denied by policy ${denyId}`);
      assert.deepEqual(evaluations[1], { policyId: denyId, outcome: "OUTCOME_DENY_EXPLICIT" });

      const half = await sendTrx(500_000);
      const signedHalf = await sign(half);
      assert.equal(signedHalf.activity.status, "ACTIVITY_STATUS_COMPLETED",
        JSON.stringify(signedHalf.activity.failure));
      assert.equal(signerOf(half, signedHalf.signedTransaction), tron);

      // A TriggerSmartContract has no amount (its value is call_value): the DENY does not apply.
      const { transaction: trc20 } = await tronWeb.transactionBuilder.triggerSmartContract(usdtNile,
        "transfer(address,uint256)", { feeLimit: 100_000_000, txLocal: true, blockHeader },
        [{ type: "address", value: tronReceiver }, { type: "uint256", value: 25_000_000_000 }], tron);
      const signedTrc20 = await sign(trc20);
      assert.equal(signedTrc20.activity.status, "ACTIVITY_STATUS_COMPLETED",
        JSON.stringify(signedTrc20.activity.failure));
      assert.equal(signerOf(trc20, signedTrc20.signedTransaction), tron);

      await deletePolicies(denyId, allowId);
    });

  test("DENY on solana.tx.transfers: @turnkey/solana's signer refuses 2 SOL and signs 0.5 SOL", async () => {
    const allowId = await allowMemberToSign();
    const denyId = await createPolicy({
      policyName: "at most 1 SOL", effect: "EFFECT_DENY",
      condition: `solana.tx.transfers.any(t, t.from == '${solana}' && t.amount > ${LAMPORTS_PER_SOL})`,
    });
    const signer = new SolanaSigner({ organizationId: sandbox.orgId, client: sandbox.member.sdk });
    const recentBlockhash = bs58.encode(crypto.createHash("sha256").update("keyhaven interop blockhash").digest());
    const transfer = (lamports) => new SolanaTransaction({ feePayer: new PublicKey(solana), recentBlockhash })
      .add(SystemProgram.transfer({
        fromPubkey: new PublicKey(solana), toPubkey: new PublicKey("11111111111111111111111111111112"), lamports,
      }));

    const denied = await rejectedActivity(signer.signTransaction(transfer(2 * LAMPORTS_PER_SOL), solana));
    assert.equal((await failureOf(denied)).failure.message, `request denied by policy ${denyId}`);
    const signed = await signer.signTransaction(transfer(LAMPORTS_PER_SOL / 2), solana);
    assert.ok(signed.verifySignatures());

    await deletePolicies(denyId, allowId);
  });

  test("an ALLOW on parsed_instruction_data, read through an uploaded Anchor IDL", async () => {
    const programId = Keypair.fromSeed(crypto.createHash("sha256").update("keyhaven vault program").digest())
      .publicKey.toBase58();
    const vault = Keypair.fromSeed(crypto.createHash("sha256").update("keyhaven vault").digest()).publicKey;
    // Anchor's discriminator: the first 8 bytes of SHA-256("global:" + the instruction's name).
    const discriminator = crypto.createHash("sha256").update("global:deposit").digest().subarray(0, 8);
    const idl = {
      address: programId,
      metadata: { name: "keyhaven_vault", version: "0.1.0", spec: "0.1.0" },
      instructions: [{
        name: "deposit", discriminator: [...discriminator],
        accounts: [{ name: "user", writable: true, signer: true }, { name: "vault", writable: true }],
        args: [{ name: "amount", type: "u64" }],
      }],
      types: [],
    };
    const created = await sandbox.admin.createSmartContractInterface({
      smartContractAddress: programId, smartContractInterface: JSON.stringify(idl),
      type: "SMART_CONTRACT_INTERFACE_TYPE_SOLANA", label: "vault",
    });
    const { smartContractInterface: stored } = await sandbox.admin.getSmartContractInterface({
      smartContractInterfaceId: created.smartContractInterfaceId,
    });
    assert.equal(stored.type, "SOLANA");
    assert.equal(stored.smartContractAddress, programId);

    const allowId = await createPolicy({
      policyName: "small deposits into the vault", effect: "EFFECT_ALLOW",
      consensus: `approvers.any(user, user.id == '${sandbox.member.id}')`,
      condition: `solana.tx.instructions.all(i, i.program_key == '${programId}' `
        + "&& i.parsed_instruction_data.instruction_name == 'deposit' "
        + `&& i.parsed_instruction_data.named_accounts['vault'] == '${vault.toBase58()}' `
        + "&& i.parsed_instruction_data.program_call_args['amount'] <= 1000)",
    });
    const signer = new SolanaSigner({ organizationId: sandbox.orgId, client: sandbox.member.sdk });
    const recentBlockhash = bs58.encode(crypto.createHash("sha256").update("keyhaven interop blockhash").digest());
    const deposit = (amount) => {
      const data = Buffer.alloc(16);
      discriminator.copy(data);
      data.writeBigUInt64LE(amount, 8); // Borsh: a u64 is 8 bytes, little-endian
      const instruction = new TransactionInstruction({
        programId: new PublicKey(programId), data,
        keys: [
          { pubkey: new PublicKey(solana), isSigner: true, isWritable: true },
          { pubkey: vault, isSigner: false, isWritable: true },
        ],
      });
      return new SolanaTransaction({ feePayer: new PublicKey(solana), recentBlockhash }).add(instruction);
    };

    const signed = await signer.signTransaction(deposit(1000n), solana);
    assert.ok(signed.verifySignatures());
    const denied = await rejectedActivity(signer.signTransaction(deposit(1001n), solana));
    assert.deepEqual((await failureOf(denied)).evaluations, [
      { policyId: allowId, outcome: "OUTCOME_DENY_IMPLICIT" }, { outcome: "OUTCOME_DENY_IMPLICIT" },
    ]);
  });
});
