package io.xmlingest.core.publish;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class EnvelopeTest {

    /** A user check saw status events' headers in either order from one JVM to the next. */
    @Test
    void headersKeepTheOrderTheyAreGivenIn() {
        Map<String, String> given = new LinkedHashMap<>();
        for (String name : new String[] {"xmlingest.file", "xmlingest.file.id", "xmlingest.record.index", "b", "a", "c"}) {
            given.put(name, name);
        }

        Envelope e = new Envelope("t", new byte[0], new byte[0], given);

        assertThat(e.headers().keySet()).containsExactly("xmlingest.file", "xmlingest.file.id", "xmlingest.record.index",
                "b", "a", "c");
    }
}
