package io.xmlingest.core.pipeline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.xmlingest.core.config.IngestConfig;
import io.xmlingest.core.config.IngestSettings;
import io.xmlingest.core.error.ConfigException;
import io.xmlingest.core.pipeline.shop.ShopOrder;
import io.xmlingest.sample.persons.Address;
import io.xmlingest.sample.persons.Person;
import io.xmlingest.sample.persons.Persons;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RecordModelTest {

    private static final String NS = "{urn:xmlingest:sample:persons}";

    private static IngestConfig config(String elements, String classes) {
        Map<String, String> flags = new HashMap<>(Map.of("record.element", elements, "record.class", classes,
                "record.key", "-", "topic", "t"));
        return IngestConfig.of(IngestSettings.ALL, flags);
    }

    /**
     * A record element bound to another class than the one the model declares it with: every record
     * was rejected for content that class has no place for, naming record.unmapped.content.
     */
    @Test
    void aRecordClassOtherThanTheOneTheModelDeclaresTheElementWithIsRefusedAtStart() {
        for (Runnable start : new Runnable[] {
                () -> RecordModel.of(config(NS + "person", Address.class.getName())),
                () -> RecordModel.check(config(NS + "person", Address.class.getName()))}) {
            assertThatThrownBy(start::run).isInstanceOf(ConfigException.class)
                    .hasMessage("record.element " + NS + "person is declared in the model with [" + Person.class.getName()
                            + "], but record.class binds it to " + Address.class.getName() + ", which no record of it "
                            + "would fit (setting: record.class)");
        }
        // Two record types given their classes in the wrong order.
        assertThatThrownBy(() -> RecordModel.of(config(NS + "person," + NS + "persons",
                Persons.class.getName() + "," + Person.class.getName())))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("give each record element its class, in the same order");
    }

    /** The config command checks what ingest checks: a record.key the class lacks was let through. */
    @Test
    void aRecordKeyTheClassLacksIsRefusedByTheCheckAsByTheModel() {
        IngestConfig misspelt = config(NS + "person", Person.class.getName()).with(Map.of("record.key", "emial"));
        for (Runnable start : new Runnable[] {() -> RecordModel.of(misspelt), () -> RecordModel.check(misspelt)}) {
            assertThatThrownBy(start::run).isInstanceOf(ConfigException.class)
                    .hasMessageStartingWith("record.key 'emial' is not an attribute or element of " + Person.class.getName()
                            + "; it has: ")
                    .hasMessageContaining("email");
        }
        RecordModel.check(config(NS + "person", Person.class.getName()).with(Map.of("record.key", "email")));
    }

    @Test
    void theDeclaredClassAndAnElementTheModelDoesNotDeclareAreTaken() {
        assertThat(RecordModel.of(config(NS + "person", Person.class.getName())).types()).hasSize(1);
        // The shop classes declare no element: bound by their type, as before.
        assertThat(RecordModel.of(config("{urn:test:shop}order", ShopOrder.class.getName())).types()).hasSize(1);
    }
}
