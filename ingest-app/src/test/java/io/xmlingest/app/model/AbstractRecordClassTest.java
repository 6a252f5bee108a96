package io.xmlingest.app.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.xmlingest.core.config.IngestConfig;
import io.xmlingest.core.config.IngestSettings;
import io.xmlingest.core.error.ConfigException;
import io.xmlingest.core.pipeline.RecordModel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * record.class naming the abstract base of the element's own class: JAXB cannot make one, and every
 * record was rejected as needing an xsi:type the file had no reason to write.
 */
class AbstractRecordClassTest {

    @TempDir
    Path dir;

    private static final String XSD = """
            <xs:schema xmlns:xs='http://www.w3.org/2001/XMLSchema' targetNamespace='urn:cat' xmlns:c='urn:cat'
                       elementFormDefault='qualified'>
              <xs:complexType name='ItemBaseType' abstract='true'><xs:sequence>
                <xs:element name='sku' type='xs:string'/></xs:sequence></xs:complexType>
              <xs:complexType name='EbookType'><xs:complexContent><xs:extension base='c:ItemBaseType'><xs:sequence>
                <xs:element name='pages' type='xs:int'/></xs:sequence></xs:extension></xs:complexContent></xs:complexType>
              <xs:element name='ebook' type='c:EbookType'/>
              <xs:element name='item' type='c:ItemBaseType'/>
            </xs:schema>
            """;

    private IngestConfig config(Path jar, String element, String recordClass) {
        return IngestConfig.of(IngestSettings.ALL, Map.of(IngestSettings.MODEL_PATH.key(), jar.toString(),
                IngestSettings.RECORD_ELEMENT.key(), element, IngestSettings.RECORD_CLASS.key(), recordClass,
                IngestSettings.RECORD_KEY.key(), "sku", IngestSettings.TOPIC.key(), "items"));
    }

    @Test
    void anAbstractBaseOfTheElementsClassIsRefusedAtStartAndTheElementsOwnAbstractTypeTaken() throws Exception {
        Path xsd = Files.writeString(dir.resolve("cat.xsd"), XSD);
        Path jar = XjcModelCompiler.compile(List.of(xsd), null, dir.resolve("model.jar")).jar();

        IngestConfig base = config(jar, "{urn:cat}ebook", "cat.ItemBaseType");
        for (Runnable start : new Runnable[] {() -> RecordModel.of(base), () -> RecordModel.check(base)}) {
            assertThatThrownBy(start::run).isInstanceOf(ConfigException.class)
                    .hasMessage("record.class cat.ItemBaseType is abstract, and the model declares record.element "
                            + "{urn:cat}ebook with [cat.EbookType]: JAXB cannot make an abstract class, so every record "
                            + "would be rejected; set record.class to the element's own class (setting: record.class)");
        }
        assertThat(RecordModel.of(config(jar, "{urn:cat}ebook", "cat.EbookType")).types()).hasSize(1);
        // An element whose own type is abstract: its records name their type with xsi:type, as the schema asks.
        assertThat(RecordModel.of(config(jar, "{urn:cat}item", "cat.ItemBaseType")).types()).hasSize(1);
    }
}
