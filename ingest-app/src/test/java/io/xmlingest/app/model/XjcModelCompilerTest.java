package io.xmlingest.app.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.xmlingest.core.encode.JsonRecordEncoder;
import io.xmlingest.core.error.ConfigException;
import jakarta.xml.bind.JAXBContext;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.StringReader;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.jar.JarFile;
import javax.xml.namespace.QName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class XjcModelCompilerTest {

    private static final String XS = "<xs:schema xmlns:xs='http://www.w3.org/2001/XMLSchema' xmlns:t='urn:test'"
            + " targetNamespace='urn:test' elementFormDefault='qualified'>\n";

    @TempDir
    Path dir;

    @Test
    void aSchemaSplitOverLocalFilesCompilesToAJarWithItsGlobalElements() throws Exception {
        Files.writeString(dir.resolve("types.xsd"), XS
                + "  <xs:complexType name='Item'><xs:sequence><xs:element name='qty' type='xs:int'/></xs:sequence>\n"
                + "    <xs:attribute name='sku' type='xs:string'/></xs:complexType>\n</xs:schema>\n");
        Path main = Files.writeString(dir.resolve("main.xsd"), XS + "  <xs:include schemaLocation='types.xsd'/>\n"
                + "  <xs:element name='item' type='t:Item'/>\n</xs:schema>\n");

        XjcModelCompiler.Result result = XjcModelCompiler.compile(List.of(main), "com.example.items", dir.resolve("out/m.jar"));

        assertThat(result.candidates()).containsExactly(
                new XjcModelCompiler.Candidate(new QName("urn:test", "item"), "com.example.items.Item"));
        try (JarFile jar = new JarFile(result.jar().toFile())) {
            assertThat(jar.getEntry("com/example/items/Item.class")).isNotNull();
            assertThat(jar.getEntry("com/example/items/ObjectFactory.class")).isNotNull();
        }
        assertThat(result.classes()).isGreaterThanOrEqualTo(3);
    }

    @Test
    void aSchemaErrorNamesTheFileLineAndColumn() throws Exception {
        Path broken = Files.writeString(dir.resolve("broken.xsd"), XS
                + "  <xs:element name='item' type='t:Missing'/>\n</xs:schema>\n");

        assertThatThrownBy(() -> XjcModelCompiler.compile(List.of(broken), null, dir.resolve("m.jar")))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("broken.xsd, line 2, column")
                .hasMessageContaining("Missing");
        assertThat(dir.resolve("m.jar")).doesNotExist();
    }

    @Test
    void aSchemaLocationOnTheNetworkIsRefusedNotFetched() throws Exception {
        Path remote = Files.writeString(dir.resolve("remote.xsd"), XS
                + "  <xs:include schemaLocation='http://schemas.example.invalid/types.xsd'/>\n"
                + "  <xs:element name='item' type='xs:string'/>\n</xs:schema>\n");

        PrintStream stderr = System.err;
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        System.setErr(new PrintStream(printed, true, StandardCharsets.UTF_8));
        try {
            assertThatThrownBy(() -> XjcModelCompiler.compile(List.of(remote), null, dir.resolve("m.jar")))
                    .isInstanceOf(ConfigException.class)
                    .hasMessageContaining("remote.xsd, line 2")
                    .hasMessageContaining("refusing to fetch http://schemas.example.invalid/types.xsd");
        } finally {
            System.setErr(stderr);
        }
        // The one-line reason is the whole story: no stack trace from xjc on the user's terminal.
        assertThat(printed.toString(StandardCharsets.UTF_8)).doesNotContain("Exception");
    }

    @Test
    void xjcsClassesForChoicesMixedContentWildcardsAndSubstitutionsKeepEveryElementsName() throws Exception {
        // The head's property keeps its XML name (contact-channel), though xjc's field is contactChannel.
        Path xsd = Files.writeString(dir.resolve("open.xsd"), XS
                + "  <xs:element name='contact-channel' type='xs:string'/>\n"
                + "  <xs:element name='fax' type='xs:string' substitutionGroup='t:contact-channel'/>\n"
                + "  <xs:element name='contact'><xs:complexType><xs:sequence>\n"
                + "    <xs:choice maxOccurs='unbounded'><xs:element name='email' type='xs:string'/>"
                + "<xs:element name='phone' type='xs:string'/></xs:choice>\n"
                + "    <xs:choice minOccurs='0' maxOccurs='unbounded'><xs:element name='weight' type='xs:decimal'/>"
                + "<xs:element name='count' type='xs:int'/></xs:choice>\n"
                + "    <xs:element name='note' minOccurs='0'><xs:complexType mixed='true'><xs:sequence>"
                + "<xs:element name='b' type='xs:string' minOccurs='0' maxOccurs='unbounded'/></xs:sequence>"
                + "</xs:complexType></xs:element>\n"
                + "    <xs:element ref='t:contact-channel' minOccurs='0'/>\n"
                + "    <xs:any namespace='##other' processContents='skip' minOccurs='0' maxOccurs='unbounded'/>\n"
                + "  </xs:sequence><xs:attribute name='id' type='xs:string' use='required'/>"
                + "<xs:anyAttribute namespace='##other' processContents='skip'/></xs:complexType></xs:element>\n"
                + "</xs:schema>\n");
        XjcModelCompiler.Result result = XjcModelCompiler.compile(List.of(xsd), "com.example.open", dir.resolve("open.jar"));

        try (URLClassLoader loader = new URLClassLoader(new URL[] {result.jar().toUri().toURL()}, getClass().getClassLoader())) {
            Class<?> contact = loader.loadClass("com.example.open.Contact");
            Object bound = JAXBContext.newInstance(contact).createUnmarshaller().unmarshal(new StringReader(
                    "<contact xmlns='urn:test' xmlns:o='urn:other' id='c1' o:flag='yes'>"
                            + "<email>a@example.org</email><phone>+351 1</phone><email>b@example.org</email>"
                            + "<count>3</count><weight>2.5</weight><note>Dear <b>Ana</b>!</note><fax>f</fax>"
                            + "<o:extra k='v'><o:deep>1</o:deep></o:extra></contact>"));

            assertThat(new String(new JsonRecordEncoder().encode(bound), StandardCharsets.UTF_8)).isEqualTo("{\"id\":\"c1\","
                    + "\"otherAttributes\":{\"{urn:other}flag\":\"yes\"},"
                    + "\"emailOrPhone\":[{\"email\":\"a@example.org\"},{\"phone\":\"+351 1\"},{\"email\":\"b@example.org\"}],"
                    + "\"weightOrCount\":[{\"count\":3},{\"weight\":2.5}],"
                    + "\"note\":{\"content\":[\"Dear \",{\"b\":\"Ana\"},\"!\"]},"
                    + "\"contact-channel\":{\"fax\":\"f\"},"
                    + "\"any\":[{\"{urn:other}extra\":{\"k\":\"v\",\"deep\":\"1\"}}]}");
        }
    }
}
