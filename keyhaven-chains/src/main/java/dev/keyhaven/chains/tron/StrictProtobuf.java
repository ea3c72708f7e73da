package dev.keyhaven.chains.tron;

import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.Message;
import com.google.protobuf.Parser;
import dev.keyhaven.chains.TransactionFormatException;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * Parses a protobuf message and accepts it only when Keyhaven reads every byte of it: no field Keyhaven's schema
 * lacks, and exactly the encoding protobuf itself would write for what was read.
 *
 * <p>Protobuf readers are lenient in ways that matter for signing: a field written twice keeps its last value (or,
 * for a message, merges both), an unknown field is carried along unread, a varint may be longer than needed. Each
 * of these lets the bytes a key signs say something that a policy did not see, or that another reader sees
 * differently. Requiring the canonical encoding rules all of them out at once; TronWeb and java-tron both write it.
 */
final class StrictProtobuf {
    private StrictProtobuf() {}

    /**
     * @param where what the bytes are, for messages (e.g. {@code raw_data},
     *     {@code contract[0].parameter.value (TransferContract)})
     */
    static <M extends Message> M parse(Parser<M> parser, byte[] bytes, String where) {
        M message;
        try {
            message = parser.parseFrom(bytes);
        } catch (InvalidProtocolBufferException e) {
            throw new TransactionFormatException(where + " is not a valid protobuf message: " + e.getMessage(), e);
        }
        requireNoUnknownFields(message, where);
        int mismatch = Arrays.mismatch(message.toByteArray(), bytes);
        if (mismatch >= 0) {
            throw new TransactionFormatException(where + " is not in protobuf's canonical encoding from byte "
                    + mismatch + " on (a field repeated or out of order, a default value written out, or a number"
                    + " longer than needed): Keyhaven signs only encodings in which what it reads is all there is");
        }
        return message;
    }

    /** The nesting is that of the schema, a handful of levels, so the recursion is bounded by it. */
    private static void requireNoUnknownFields(Message message, String path) {
        Map<Integer, ?> unknown = message.getUnknownFields().asMap();
        if (!unknown.isEmpty()) {
            throw new TransactionFormatException(
                    path + " has field " + unknown.keySet().iterator().next() + ", which Keyhaven does not read");
        }
        for (Map.Entry<FieldDescriptor, Object> entry : message.getAllFields().entrySet()) {
            FieldDescriptor field = entry.getKey();
            if (field.getJavaType() != FieldDescriptor.JavaType.MESSAGE) {
                continue;
            }
            String fieldPath = path + "." + field.getName();
            if (field.isRepeated()) {
                List<?> elements = (List<?>) entry.getValue();
                for (int i = 0; i < elements.size(); i++) {
                    requireNoUnknownFields((Message) elements.get(i), fieldPath + "[" + i + "]");
                }
            } else {
                requireNoUnknownFields((Message) entry.getValue(), fieldPath);
            }
        }
    }
}
