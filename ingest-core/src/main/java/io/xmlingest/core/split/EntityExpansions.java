package io.xmlingest.core.split;

import com.ctc.wstx.sr.StreamScanner;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import javax.xml.stream.XMLStreamReader;

/**
 * Makes xml.max.entity.expansions a limit per record. Woodstox counts the entity expansions of a
 * whole document and has no way to start the count again, so a large export that uses entities as
 * intended (one reference a record) failed at its 10,000th reference, while a billion laughs needs a
 * limit only on what one record expands. The count is a protected field of Woodstox's scanner, set
 * back to 0 as each record starts; Woodstox's own check, made as it expands, still does the stopping.
 */
final class EntityExpansions {

    private static final VarHandle COUNT = find();

    private EntityExpansions() {
    }

    private static VarHandle find() {
        try {
            return MethodHandles.privateLookupIn(StreamScanner.class, MethodHandles.lookup())
                    .findVarHandle(StreamScanner.class, "mEntityExpansionCount", int.class);
        } catch (ReflectiveOperationException | RuntimeException e) {
            // Another Woodstox: the limit is then the document's, stricter, never looser (a test says which).
            return null;
        }
    }

    /** Starts the count of {@code reader}'s expansions again, as a record starts. */
    static void restart(XMLStreamReader reader) {
        if (COUNT != null && reader instanceof StreamScanner scanner) {
            COUNT.set(scanner, 0);
        }
    }
}
