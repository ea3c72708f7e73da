/**
 * Ethereum for policies: {@code eth.tx} ({@link dev.keyhaven.chains.ethereum.EthereumTransactionView}), the fields
 * of an unsigned transaction of any type and, when the organization uploaded the ABI of the contract it calls
 * ({@link dev.keyhaven.chains.ethereum.ContractAbi}), the function and arguments of that call. Parsing and signing
 * the transaction itself is {@link dev.keyhaven.crypto.eth.EthereumTransaction}'s; ABI types and decoding are
 * headlong's, behind a layout check that keeps hostile calldata from costing more than its own size.
 */
package dev.keyhaven.chains.ethereum;
