/**
 * The protobuf messages protoc generates from {@code src/main/proto/keyhaven/tron}: Tron's transaction envelope and
 * the parameters of the contract types Keyhaven reads, in Tron's own protobuf package {@code protocol} so their type
 * URLs are the ones Tron writes. Read only through {@link dev.keyhaven.chains.tron.TronTransaction}.
 */
package dev.keyhaven.chains.tron.proto;
