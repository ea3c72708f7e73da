package dev.keyhaven.chains.solana;

import dev.keyhaven.chains.TransactionFormatException;
import dev.keyhaven.policy.Value;
import dev.keyhaven.policy.ValueType;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * A Solana transaction in wire form, as {@code @turnkey/solana} sends it
 * ({@code serialize({requireAllSignatures: false, verifySignatures: false})}): a compact-u16 count of 64-byte
 * signature slots (zeros where no one has signed yet), then the message, legacy or v0. Parsing refuses anything the
 * network would refuse or read differently, and a System Program or SPL Token transfer whose data does not have its
 * exact layout. Immutable.
 */
public final class SolanaTransaction {
    /** The largest transaction the network accepts: an IPv6 packet's 1280 bytes less 48 of headers. */
    static final int MAX_SIZE = 1232;

    static final int SIGNATURE_SIZE = 64;

    /** The shape of {@code solana.tx}, see {@link #policyValue}. */
    public static final ValueType POLICY_TYPE = SolanaPolicyView.TYPE;

    private final byte[] wire;
    private final int firstSlot;
    private final int messageOffset;
    private final SolanaMessage message;
    private final List<NativeTransfer> transfers;
    private final List<TokenTransfer> tokenTransfers;

    private SolanaTransaction(byte[] wire, int firstSlot, int messageOffset, SolanaMessage message) {
        this.wire = wire;
        this.firstSlot = firstSlot;
        this.messageOffset = messageOffset;
        this.message = message;
        List<NativeTransfer> nativeTransfers = new ArrayList<>();
        List<TokenTransfer> splTransfers = new ArrayList<>();
        for (int i = 0; i < message.instructions().size(); i++) {
            CompiledInstruction instruction = message.instructions().get(i);
            String program = message.programKey(instruction);
            List<MessageAccount> accounts = message.accounts(instruction);
            byte[] data = instruction.data();
            if (program.equals(SolanaKeys.SYSTEM_PROGRAM)) {
                SystemProgram.transfer(i, accounts, data).ifPresent(nativeTransfers::add);
            } else if (program.equals(SolanaKeys.TOKEN_PROGRAM) || program.equals(SolanaKeys.TOKEN_2022_PROGRAM)) {
                TokenProgram.transfer(i, program, accounts, data).ifPresent(splTransfers::add);
            }
        }
        this.transfers = List.copyOf(nativeTransfers);
        this.tokenTransfers = List.copyOf(splTransfers);
    }

    /**
     * Parses a wire transaction (legacy or v0) as {@code @turnkey/solana} sends it (hex-decoded by the server).
     *
     * @throws TransactionFormatException on anything wrong: truncation, trailing bytes, more than 1232 bytes, an
     *     unknown message version, a signature count other than the header's, an inconsistent header, repeated keys,
     *     an index out of range, a program loaded from a lookup table, a malformed System or SPL Token transfer
     */
    public static SolanaTransaction parse(byte[] wire) {
        Objects.requireNonNull(wire, "wire");
        if (wire.length == 0) {
            throw new TransactionFormatException("the Solana transaction is empty");
        }
        if (wire.length > MAX_SIZE) {
            throw new TransactionFormatException("the Solana transaction is " + wire.length + " bytes; the network "
                    + "accepts at most " + MAX_SIZE);
        }
        byte[] copy = wire.clone();
        WireReader reader = new WireReader(copy, 0);
        int slots = reader.count("signatures", SIGNATURE_SIZE);
        int firstSlot = reader.position();
        reader.skip(slots * SIGNATURE_SIZE, "signatures");
        int messageOffset = reader.position();
        SolanaMessage message = MessageParser.parse(copy, messageOffset);
        if (slots != message.header().requiredSignatures()) {
            throw new TransactionFormatException("the transaction has " + slots + " signature slots but its message "
                    + "requires " + message.header().requiredSignatures() + " signatures");
        }
        return new SolanaTransaction(copy, firstSlot, messageOffset, message);
    }

    /** The exact message bytes an Ed25519 key signs: everything after the signature slots. */
    public byte[] message() {
        return Arrays.copyOfRange(wire, messageOffset, wire.length);
    }

    /** The Base58 keys whose signatures go in the transaction's slots, in slot order; the first pays the fee. */
    public List<String> requiredSigners() {
        return message.requiredSigners();
    }

    /**
     * The wire transaction with {@code signature64} in the slot of {@code publicKey32}, other slots unchanged.
     *
     * @throws TransactionFormatException naming the key (Base58) when it is not a required signer, or when either
     *     argument has the wrong length
     */
    public byte[] withSignature(byte[] publicKey32, byte[] signature64) {
        if (publicKey32.length != SolanaKeys.SIZE) {
            throw new TransactionFormatException(
                    "a Solana public key is " + SolanaKeys.SIZE + " bytes, not " + publicKey32.length);
        }
        if (signature64.length != SIGNATURE_SIZE) {
            throw new TransactionFormatException(
                    "an Ed25519 signature is " + SIGNATURE_SIZE + " bytes, not " + signature64.length);
        }
        String key = SolanaKeys.base58(publicKey32);
        int slot = message.requiredSigners().indexOf(key);
        if (slot < 0) {
            throw new TransactionFormatException(key + " is not a required signer of this transaction");
        }
        byte[] signed = wire.clone();
        System.arraycopy(signature64, 0, signed, firstSlot + slot * SIGNATURE_SIZE, SIGNATURE_SIZE);
        return signed;
    }

    /** The Base58 ids of the programs the instructions call, in the order first called: those that may have IDLs. */
    public Set<String> programKeys() {
        return Collections.unmodifiableSequencedSet(message.programKeys());
    }

    /**
     * {@code solana.tx} for policies, of shape {@link #POLICY_TYPE}: {@code account_keys}, {@code program_keys},
     * {@code recent_blockhash}, {@code instructions}, {@code transfers}, {@code spl_transfers} and
     * {@code address_table_lookups}, as Turnkey documents them. Accounts loaded from lookup tables are
     * {@code ADDRESS_TABLE_LOOKUP} wherever a key goes. An instruction's {@code parsed_instruction_data} is decoded
     * with its program's IDL (integers as ints, floats as decimal strings, pubkeys as Base58, bytes as hex,
     * structs as maps, vecs and arrays and tuples as lists, unit enum variants as their name and others as
     * {@code {variant: fields}}, absent options left out), and is unreadable when there
     * is no IDL, the data matches none of its instructions or does not decode exactly, or accounts it requires are
     * missing.
     *
     * @param idls the uploaded Anchor IDL of a program id (Base58, case-sensitive), if any; asked once per program
     */
    public Value policyValue(Function<String, Optional<AnchorIdl>> idls) {
        Objects.requireNonNull(idls, "idls");
        return SolanaPolicyView.of(message, transfers, tokenTransfers, idls);
    }
}
