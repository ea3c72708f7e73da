package dev.keyhaven.server.state;

import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Serialised query answers, each labelled with the organization state version it was read at, kept least recently
 * used first within a byte budget. A label that is no longer current is never asked for again (readers ask with the
 * version they verified), so stale answers simply age out.
 *
 * <p>One lock guards the map: a lookup or insertion is a few hash operations, far shorter than producing an answer.
 */
final class RememberedAnswers {
    private final long budgetBytes;
    private final LinkedHashMap<Label, byte[]> answers = new LinkedHashMap<>(64, 0.75f, true);
    private long bytes;

    /** An answer's label: the lookup at one version of one organization. */
    record Label(String organizationId, long version, Object lookup) {}

    RememberedAnswers(long budgetBytes) {
        this.budgetBytes = budgetBytes;
    }

    synchronized byte[] get(Label label) {
        return answers.get(label);
    }

    /** Keeps {@code answer} unless it alone exceeds a tenth of the budget; drops the least recently used to fit. */
    synchronized void put(Label label, byte[] answer) {
        if (answer.length > budgetBytes / 10) {
            return;
        }
        byte[] previous = answers.put(label, answer);
        bytes += answer.length - (previous == null ? 0 : previous.length);
        Iterator<Map.Entry<Label, byte[]>> oldest = answers.entrySet().iterator();
        while (bytes > budgetBytes && oldest.hasNext()) {
            bytes -= oldest.next().getValue().length;
            oldest.remove();
        }
    }

    synchronized long bytes() {
        return bytes;
    }
}
