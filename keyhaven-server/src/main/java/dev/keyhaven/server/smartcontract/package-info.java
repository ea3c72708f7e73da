/**
 * Smart-contract interfaces: the Ethereum ABIs and Solana Anchor IDLs an organization uploads so that policies can read
 * contract calls ({@code eth.tx.function_name}, {@code contract_call_args}; {@code parsed_instruction_data}).
 * {@code create_smart_contract_interface} checks that the document parses (keyhaven-chains' {@code ContractAbi} and
 * {@code AnchorIdl}) before storing it; {@link dev.keyhaven.server.smartcontract.ContractInterfaces} finds the one for
 * a contract address while a transaction is judged, parsed once per organization state.
 */
package dev.keyhaven.server.smartcontract;
