// Regenerates eip712-viem-ethers.json and eip7702-libraries.json. Not run by the build: the JSON files are committed.
// Run from a directory with viem@2.30.0, ethers@6.17.0 and @metamask/eth-sig-util@8.2.0 installed:
//   node generate-viem-ethers.mjs > /dev/null   (writes the two files next to this script)
// A vector is written only when every library that can compute it agrees.
import { hashTypedData } from 'viem';
import { hashAuthorization } from 'viem/utils';
import { TypedDataEncoder, hashAuthorization as ethersHashAuthorization } from 'ethers';
import sigUtil from '@metamask/eth-sig-util';
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const DOMAIN_TYPE = [
  { name: 'name', type: 'string' }, { name: 'version', type: 'string' },
  { name: 'chainId', type: 'uint256' }, { name: 'verifyingContract', type: 'address' },
];
const PERSON = [{ name: 'name', type: 'string' }, { name: 'wallet', type: 'address' }];

const cases = [
  {
    name: 'arrays: struct array, fixed array, nested int8[2][], bytes32[] and bool[2]',
    typedData: {
      types: {
        EIP712Domain: DOMAIN_TYPE,
        Person: PERSON,
        Group: [
          { name: 'name', type: 'string' }, { name: 'members', type: 'Person[]' },
          { name: 'scores', type: 'uint256[3]' }, { name: 'matrix', type: 'int8[2][]' },
          { name: 'tags', type: 'bytes32[]' }, { name: 'flags', type: 'bool[2]' },
        ],
      },
      primaryType: 'Group',
      domain: { name: 'Groups', version: '2', chainId: '137', verifyingContract: '0x1111111111111111111111111111111111111111' },
      message: {
        name: 'core',
        members: [
          { name: 'Cow', wallet: '0xCD2a3d9F938E13CD947Ec05AbC7FE734Df8DD826' },
          { name: 'Bob', wallet: '0xbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb' },
        ],
        scores: [1, '2', '0x03'],
        matrix: [[-128, 127], ['-1', '0x7f'], [0, 0]],
        tags: ['0x' + 'ab'.repeat(32), '0x' + '00'.repeat(31) + '01'],
        flags: [true, false],
      },
    },
  },
  {
    name: 'empty arrays',
    typedData: {
      types: { EIP712Domain: DOMAIN_TYPE, Person: PERSON, Batch: [{ name: 'people', type: 'Person[]' }, { name: 'ids', type: 'uint64[]' }] },
      primaryType: 'Batch',
      domain: { name: 'Batch', version: '1', chainId: 1, verifyingContract: '0x2222222222222222222222222222222222222222' },
      message: { people: [], ids: [] },
    },
  },
  {
    name: 'integers at the edges of their ranges, as numbers, decimal strings and hex strings',
    typedData: {
      types: {
        EIP712Domain: DOMAIN_TYPE,
        Numbers: [
          { name: 'u8', type: 'uint8' }, { name: 'u256max', type: 'uint256' }, { name: 'i256min', type: 'int256' },
          { name: 'i256max', type: 'int256' }, { name: 'i64', type: 'int64' }, { name: 'u160', type: 'uint160' },
          { name: 'i8min', type: 'int8' }, { name: 'u48', type: 'uint48' },
        ],
      },
      primaryType: 'Numbers',
      domain: { name: 'Numbers', version: '1', chainId: 10, verifyingContract: '0x3333333333333333333333333333333333333333' },
      message: {
        u8: '0xff',
        u256max: '115792089237316195423570985008687907853269984665640564039457584007913129639935',
        i256min: '-57896044618658097711785492504343953926634992332820282019728792003956564819968',
        i256max: '0x7fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff',
        i64: -1,
        u160: '0xffffffffffffffffffffffffffffffffffffffff',
        i8min: -128,
        u48: 281474976710655,
      },
    },
  },
  {
    name: 'bytes: empty and long; bytes1, bytes4 and bytes32',
    typedData: {
      types: {
        EIP712Domain: DOMAIN_TYPE,
        Blob: [
          { name: 'empty', type: 'bytes' }, { name: 'long', type: 'bytes' },
          { name: 'one', type: 'bytes1' }, { name: 'word', type: 'bytes32' }, { name: 'four', type: 'bytes4' },
        ],
      },
      primaryType: 'Blob',
      domain: { name: 'Blob', version: '1', chainId: 1, verifyingContract: '0x4444444444444444444444444444444444444444' },
      message: {
        empty: '0x', long: '0x' + '0123456789abcdef'.repeat(20), one: '0xff',
        word: '0x' + '5a'.repeat(32), four: '0xa9059cbb',
      },
    },
  },
  {
    name: 'bytes with an odd number of hex digits, read with a leading zero nibble',
    // ethers refuses odd-length hex; viem and eth-sig-util pad it, and so do we.
    skipEthers: true,
    typedData: {
      types: { EIP712Domain: DOMAIN_TYPE, Blob: [{ name: 'odd', type: 'bytes' }] },
      primaryType: 'Blob',
      domain: { name: 'Blob', version: '1', chainId: 1, verifyingContract: '0x4444444444444444444444444444444444444444' },
      message: { odd: '0x123' },
    },
  },
  {
    name: 'EIP712Domain absent from types: inferred from name, chainId and salt',
    typedData: {
      types: { Note: [{ name: 'text', type: 'string' }] },
      primaryType: 'Note',
      domain: { name: 'Notes', chainId: 5, salt: '0x' + '01'.repeat(32) },
      message: { text: 'hello' },
    },
  },
  {
    name: 'EIP712Domain absent from types: all five domain fields inferred in order',
    typedData: {
      types: { Note: [{ name: 'text', type: 'string' }] },
      primaryType: 'Note',
      domain: {
        salt: '0x' + 'f0'.repeat(32), verifyingContract: '0x5555555555555555555555555555555555555555',
        chainId: 8453, version: '3', name: 'Ordered',
      },
      message: { text: 'field order in the JSON does not matter' },
    },
  },
  {
    name: 'unicode strings',
    typedData: {
      types: { EIP712Domain: DOMAIN_TYPE, Note: [{ name: 'text', type: 'string' }, { name: 'author', type: 'string' }] },
      primaryType: 'Note',
      domain: { name: 'Ünïcödé ✓', version: '1', chainId: 1, verifyingContract: '0x6666666666666666666666666666666666666666' },
      message: { text: 'emoji 😁 and CJK 漢字', author: '' },
    },
  },
  {
    name: 'referenced types sorted by name (upper case before lower case), primary type first',
    typedData: {
      types: {
        EIP712Domain: DOMAIN_TYPE,
        Root: [{ name: 'z', type: 'Zeta' }, { name: 'b', type: 'beta' }, { name: 'a', type: 'Alpha[]' }],
        Zeta: [{ name: 'a', type: 'Alpha' }, { name: 'n', type: 'uint8' }],
        Alpha: [{ name: 'v', type: 'uint256' }],
        beta: [{ name: 'ok', type: 'bool' }],
      },
      primaryType: 'Root',
      domain: { name: 'Sort', version: '1', chainId: 1, verifyingContract: '0x7777777777777777777777777777777777777777' },
      message: { z: { a: { v: 1 }, n: 2 }, b: { ok: true }, a: [{ v: 3 }, { v: 4 }] },
    },
  },
  {
    name: 'recursive type through an array',
    // The spec allows recursive struct types; ethers refuses them ("circular type reference").
    skipEthers: true,
    typedData: {
      types: { EIP712Domain: DOMAIN_TYPE, Node: [{ name: 'value', type: 'uint256' }, { name: 'children', type: 'Node[]' }] },
      primaryType: 'Node',
      domain: { name: 'Tree', version: '1', chainId: 1, verifyingContract: '0x8888888888888888888888888888888888888888' },
      message: { value: 1, children: [{ value: 2, children: [] }, { value: 3, children: [{ value: 4, children: [] }] }] },
    },
  },
  {
    name: 'Uniswap Permit2 PermitSingle',
    typedData: {
      types: {
        EIP712Domain: [{ name: 'name', type: 'string' }, { name: 'chainId', type: 'uint256' }, { name: 'verifyingContract', type: 'address' }],
        PermitDetails: [
          { name: 'token', type: 'address' }, { name: 'amount', type: 'uint160' },
          { name: 'expiration', type: 'uint48' }, { name: 'nonce', type: 'uint48' },
        ],
        PermitSingle: [{ name: 'details', type: 'PermitDetails' }, { name: 'spender', type: 'address' }, { name: 'sigDeadline', type: 'uint256' }],
      },
      primaryType: 'PermitSingle',
      domain: { name: 'Permit2', chainId: 1, verifyingContract: '0x000000000022D473030F116dDEE9F6B43aC78BA3' },
      message: {
        details: { token: '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48', amount: '1461501637330902918203684832716283019655932542975', expiration: 1735689600, nonce: 0 },
        spender: '0x3fC91A3afd70395Cd496C647d5a6CC9D4B2b7FAD',
        sigDeadline: '1735689600',
      },
    },
  },
  {
    name: 'primaryType EIP712Domain: the digest covers the domain only',
    typedData: {
      types: { EIP712Domain: DOMAIN_TYPE },
      primaryType: 'EIP712Domain',
      domain: { name: 'Only', version: '1', chainId: 1, verifyingContract: '0x9999999999999999999999999999999999999999' },
    },
  },
];

const out = [];
for (const c of cases) {
  const td = c.typedData;
  const checkedWith = [];
  const viemHash = hashTypedData(td);
  checkedWith.push('viem@2.30.0 hashTypedData');
  if (td.primaryType !== 'EIP712Domain' && !c.skipEthers) {
    const { EIP712Domain, ...types } = td.types;
    const ethersHash = TypedDataEncoder.hash(td.domain, types, td.message);
    if (ethersHash !== viemHash) throw new Error(`${c.name}: ethers ${ethersHash} != viem ${viemHash}`);
    checkedWith.push('ethers@6.17.0 TypedDataEncoder.hash');
  }
  if (td.types.EIP712Domain) {
    const m = sigUtil.TypedDataUtils.eip712Hash({ message: {}, ...td }, sigUtil.SignTypedDataVersion.V4);
    const sigUtilHash = '0x' + Buffer.from(m).toString('hex');
    if (sigUtilHash !== viemHash) throw new Error(`${c.name}: eth-sig-util ${sigUtilHash} != viem ${viemHash}`);
    checkedWith.push('@metamask/eth-sig-util@8.2.0 TypedDataUtils.eip712Hash V4');
  }
  out.push({ name: c.name, checkedWith, typedData: td, digest: viemHash });
}
writeFileSync(join(here, 'eip712-viem-ethers.json'), JSON.stringify(out, null, 2) + '\n');

const auths = [
  { name: 'viem hashAuthorization test: chainId 1, nonce 40', chainId: 1, address: '0xbe95c3f554e9fc85ec51be69a3d807a0d55bcf2c', nonce: 40 },
  { name: 'viem hashAuthorization test: chainId 69, nonce 420', chainId: 69, address: '0xFBA3912Ca04dd458c843e2EE08967fC04f3579c2', nonce: 420 },
  { name: 'viem hashAuthorization test: chainId 0, nonce 0', chainId: 0, address: '0xbe95c3f554e9fc85ec51be69a3d807a0d55bcf2c', nonce: 0 },
  { name: 'eth-sig-util test: chainId 8545, nonce 1', chainId: 8545, address: '0x1234567890123456789012345678901234567890', nonce: 1 },
  { name: 'nonce 127 (single-byte RLP) and chainId 128 (first two-byte)', chainId: 128, address: '0x0000000000000000000000000000000000000000', nonce: 127 },
  { name: 'largest nonce (2^64-1) and a chainId of 2^256-1', chainId: (1n << 256n) - 1n, address: '0xffffffffffffffffffffffffffffffffffffffff', nonce: (1n << 64n) - 1n },
];
const authOut = [];
for (const a of auths) {
  const viemHash = hashAuthorization({ chainId: a.chainId, address: a.address, nonce: a.nonce });
  const ethersHash = ethersHashAuthorization({ chainId: a.chainId, address: a.address, nonce: a.nonce });
  if (viemHash !== ethersHash) throw new Error(`${a.name}: ethers ${ethersHash} != viem ${viemHash}`);
  const checkedWith = ['viem@2.30.0 hashAuthorization', 'ethers@6.17.0 hashAuthorization'];
  if (a.chainId < 2n ** 53n && a.nonce < 2n ** 53n) {
    const m = '0x' + Buffer.from(sigUtil.hashEIP7702Authorization([Number(a.chainId), a.address, Number(a.nonce)])).toString('hex');
    if (m !== viemHash) throw new Error(`${a.name}: eth-sig-util ${m} != viem ${viemHash}`);
    checkedWith.push('@metamask/eth-sig-util@8.2.0 hashEIP7702Authorization');
  }
  authOut.push({ name: a.name, checkedWith, authorization: { address: a.address, chainId: a.chainId.toString(), nonce: a.nonce.toString() }, digest: viemHash });
}
writeFileSync(join(here, 'eip7702-libraries.json'), JSON.stringify(authOut, null, 2) + '\n');
