package io.xmlingest.app.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.xmlingest.core.bind.JaxbRecordBinder;
import io.xmlingest.core.encode.JsonRecordEncoder;
import io.xmlingest.core.encode.JsonSchemaWriter;
import io.xmlingest.core.error.ConfigException;
import io.xmlingest.core.error.ErrorLocation;
import io.xmlingest.core.error.RecordRejectedException;
import io.xmlingest.core.split.StaxRecordSplitter;
import io.xmlingest.core.split.XmlLimits;
import jakarta.xml.bind.JAXBContext;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.StringReader;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
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
        assertThat(result.warning()).as("strict, so nothing to warn of").isNull();
    }

    @Test
    void aSchemaWithItsOwnGlobalBindingsCompilesWithThemAndSaysItBindsLeniently() throws Exception {
        // xjc takes one jaxb:globalBindings per compilation; with ours added, such a schema did not compile at all.
        Path xsd = Files.writeString(dir.resolve("own.xsd"), XS.replace(">\n",
                " xmlns:jaxb='https://jakarta.ee/xml/ns/jaxb' jaxb:version='3.0'>\n")
                + "  <xs:annotation><xs:appinfo><jaxb:globalBindings generateElementProperty='false'/></xs:appinfo>"
                + "</xs:annotation>\n"
                + "  <xs:element name='item'><xs:complexType><xs:sequence><xs:element name='qty' type='xs:int'/>"
                + "</xs:sequence></xs:complexType></xs:element>\n</xs:schema>\n");

        XjcModelCompiler.Result result = XjcModelCompiler.compile(List.of(xsd), "com.example.own", dir.resolve("own.jar"));

        assertThat(result.candidates()).extracting(XjcModelCompiler.Candidate::className)
                .containsExactly("com.example.own.Item");
        assertThat(result.warning()).contains("its own jaxb:globalBindings", "record.schema");
    }

    @Test
    void anEnumerationXjcDoesNotMakeAJavaEnumIsNamedInAWarning() throws Exception {
        // Its values bind as any string or int would: only record.schema holds them to the enumeration, which the
        // README said and model compile did not.
        Path xsd = Files.writeString(dir.resolve("enums.xsd"), XS
                + "  <xs:simpleType name='Odd'><xs:restriction base='xs:string'><xs:enumeration value=''/>"
                + "<xs:enumeration value='a b'/></xs:restriction></xs:simpleType>\n"
                + "  <xs:simpleType name='Color'><xs:restriction base='xs:string'><xs:enumeration value='red'/>"
                + "<xs:enumeration value='blue'/></xs:restriction></xs:simpleType>\n"
                + "  <xs:element name='v'><xs:complexType><xs:sequence><xs:element name='odd' type='t:Odd' minOccurs='0'/>"
                + "<xs:element name='color' type='t:Color' minOccurs='0' maxOccurs='unbounded'/>"
                + "<xs:element name='level' minOccurs='0'><xs:simpleType><xs:restriction base='xs:int'>"
                + "<xs:enumeration value='1'/><xs:enumeration value='2'/></xs:restriction></xs:simpleType></xs:element>"
                + "</xs:sequence></xs:complexType></xs:element>\n"
                // An element named twice in a sequence: xjc holds the type's elements in one list, and the enumeration
                // of those in it went unnamed.
                + "  <xs:element name='w'><xs:complexType><xs:sequence><xs:element name='odd' type='t:Odd'/>"
                + "<xs:element name='note' type='xs:string' minOccurs='0'/><xs:element name='odd' type='t:Odd' "
                + "minOccurs='0'/></xs:sequence></xs:complexType></xs:element>\n"
                // A reference to a nillable global element, compiled again to keep its nil: it was left out then.
                + "  <xs:element name='oddRef' type='t:Odd' nillable='true'/>\n"
                + "  <xs:element name='x'><xs:complexType><xs:sequence><xs:element ref='t:oddRef' minOccurs='0'/>"
                + "</xs:sequence></xs:complexType></xs:element>\n</xs:schema>\n");

        XjcModelCompiler.Result result = XjcModelCompiler.compile(List.of(xsd), "com.example.enums", dir.resolve("e.jar"));

        assertThat(result.warning()).contains("restricted to an enumeration that xjc binds to its base type",
                "unless record.schema names this XSD: V.odd (Odd), V.level, W.content <odd> (Odd), X.oddRef (Odd)")
                .doesNotContain("color");
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

    /**
     * xjc places some errors in its own built-in schema and gives the line of the user's after them: the error
     * named a datatypes.xsd beside the working directory, which does not exist.
     */
    @Test
    void anErrorXjcPlacesInItsOwnSchemaNamesTheLineOfTheUsersThatCausesIt() throws Exception {
        Path clash = Files.writeString(dir.resolve("val.xsd"), XS
                + "  <xs:complexType name='Money'><xs:simpleContent><xs:extension base='xs:string'>\n"
                + "    <xs:attribute name='value' type='xs:string'/></xs:extension></xs:simpleContent></xs:complexType>\n"
                + "  <xs:element name='m' type='t:Money'/>\n</xs:schema>\n");

        assertThatThrownBy(() -> XjcModelCompiler.compile(List.of(clash), null, dir.resolve("v.jar")))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("val.xsd, line ")
                .hasMessageContaining("\"Value\" is already defined")
                .hasMessageNotContaining("datatypes.xsd");
    }

    /** Before, the error named neither the schema nor the line that names the missing one (line -1, column -1). */
    @Test
    void aMissingLocalSchemaIsNamedWithTheIncludeThatNamesIt() throws Exception {
        Path importing = Files.writeString(dir.resolve("importing.xsd"), XS
                + "  <xs:include schemaLocation='sub/missing.xsd'/>\n"
                + "  <xs:element name='item' type='xs:string'/>\n</xs:schema>\n");

        assertThatThrownBy(() -> XjcModelCompiler.compile(List.of(importing), null, dir.resolve("m.jar")))
                .isInstanceOf(ConfigException.class)
                .hasMessageStartingWith(importing.toAbsolutePath() + ", line 2, column")
                .hasMessageContaining("the schema it names, " + dir.resolve("sub/missing.xsd").toAbsolutePath()
                        + ", does not exist");
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

    /** Every built-in type xjc maps to a Java number, boolean, calendar, duration or byte array, and enumerations. */
    private static final String TYPES_XSD = XS
            + "  <xs:simpleType name='Color'><xs:restriction base='xs:string'><xs:enumeration value='red'/>"
            + "<xs:enumeration value='dark blue'/></xs:restriction></xs:simpleType>\n"
            + "  <xs:simpleType name='Size'><xs:restriction base='xs:token'><xs:enumeration value='S'/>"
            + "<xs:enumeration value='X L'/></xs:restriction></xs:simpleType>\n"
            + "  <xs:simpleType name='Colors'><xs:list itemType='t:Color'/></xs:simpleType>\n"
            + "  <xs:simpleType name='Ints'><xs:list itemType='xs:int'/></xs:simpleType>\n"
            + "  <xs:simpleType name='Age'><xs:restriction base='xs:int'><xs:minInclusive value='0'/></xs:restriction>"
            + "</xs:simpleType>\n"
            + "  <xs:element name='v'><xs:complexType><xs:sequence>\n"
            + "    <xs:element name='b' type='xs:boolean'/><xs:element name='by' type='xs:byte'/>"
            + "<xs:element name='s' type='xs:short'/><xs:element name='n' type='xs:int'/>"
            + "<xs:element name='l' type='xs:long'/>\n"
            + "    <xs:element name='ub' type='xs:unsignedByte'/><xs:element name='us' type='xs:unsignedShort'/>"
            + "<xs:element name='ui' type='xs:unsignedInt'/><xs:element name='ul' type='xs:unsignedLong'/>\n"
            + "    <xs:element name='i' type='xs:integer'/><xs:element name='nni' type='xs:nonNegativeInteger'/>"
            + "<xs:element name='pi' type='xs:positiveInteger'/><xs:element name='npi' type='xs:nonPositiveInteger'/>"
            + "<xs:element name='ni' type='xs:negativeInteger'/>\n"
            + "    <xs:element name='d' type='xs:decimal'/><xs:element name='f' type='xs:float'/>"
            + "<xs:element name='db' type='xs:double'/>\n"
            + "    <xs:element name='date' type='xs:date'/><xs:element name='dt' type='xs:dateTime'/>"
            + "<xs:element name='t' type='xs:time'/><xs:element name='gy' type='xs:gYear'/>"
            + "<xs:element name='gym' type='xs:gYearMonth'/><xs:element name='gm' type='xs:gMonth'/>"
            + "<xs:element name='gmd' type='xs:gMonthDay'/><xs:element name='gd' type='xs:gDay'/>"
            + "<xs:element name='dur' type='xs:duration'/>\n"
            + "    <xs:element name='bin' type='xs:base64Binary'/><xs:element name='hex' type='xs:hexBinary'/>\n"
            + "    <xs:element name='color' type='t:Color' minOccurs='0'/><xs:element name='colors' type='t:Colors'"
            + " minOccurs='0'/><xs:element name='size' type='t:Size' minOccurs='0'/>"
            + "<xs:element name='maybe' type='t:Color' minOccurs='0' nillable='true'/>\n"
            + "    <xs:element name='ns' type='t:Ints' minOccurs='0'/><xs:element name='age' type='t:Age' minOccurs='0'/>"
            + "<xs:element name='opt' type='xs:int' minOccurs='0' nillable='true'/>"
            + "<xs:element name='many' type='xs:double' minOccurs='0' maxOccurs='unbounded'/>\n"
            + "  </xs:sequence><xs:attribute name='shade' type='t:Color'/>"
            + "<xs:attribute name='count' type='xs:int' default='7'/></xs:complexType></xs:element>\n"
            + "</xs:schema>\n";

    private static final String VALID = "<b>1</b><by>-128</by><s>32767</s><n> -2147483648\n</n><l>+9223372036854775807</l>"
            + "<ub>255</ub><us>65535</us><ui>4294967295</ui><ul>18446744073709551615</ul>"
            + "<i>-123456789012345678901234567890</i><nni>0</nni><pi>+007</pi><npi>-0</npi><ni>-1</ni>"
            + "<d>-.50</d><f>1.5E3</f><db>-INF</db>"
            + "<date>1959-06-11</date><dt>2024-02-29T23:59:59.250+01:00</dt><t>10:20:30Z</t><gy>-0044</gy>"
            + "<gym>2024-02</gym><gm>--06</gm><gmd>--02-29</gmd><gd>---31</gd><dur>\nP1Y2M3DT4H5M6.50S </dur>"
            + "<bin>SGVs bG8=</bin><hex>0fA1</hex>"
            + "<color>dark blue</color><colors>red  red</colors><size> S </size><maybe xsi:nil='true'/>"
            + "<ns>1 -2</ns><age>42</age><opt>5</opt><many>1</many><many>NaN</many>";

    // What xjc's own binding wrote for VALID, but for "size": JAXB's enum lookup did not trim the
    // xs:token " S " and dropped it; XML Schema collapses a token's whitespace, so it is S. And
    // for "dur", whose surrounding whitespace JAXB's duration parser refused, rejecting the record.
    private static final String VALID_JSON = "{\"shade\":\"red\",\"count\":7,\"b\":true,\"by\":-128,\"s\":32767,\"n\":-2147483648,\"l\":9223372036854775807,"
            + "\"ub\":255,\"us\":65535,\"ui\":4294967295,\"ul\":18446744073709551615,"
            + "\"i\":-123456789012345678901234567890,\"nni\":0,\"pi\":7,\"npi\":0,\"ni\":-1,\"d\":-0.50,\"f\":1500.0,"
            + "\"db\":\"-INF\",\"date\":\"1959-06-11\",\"dt\":\"2024-02-29T23:59:59.250+01:00\",\"t\":\"10:20:30Z\","
            + "\"gy\":\"-0044\",\"gym\":\"2024-02\",\"gm\":\"--06\",\"gmd\":\"--02-29\",\"gd\":\"---31\",\"dur\":\"P1Y2M3DT4H5M6.50S\",\"bin\":\"SGVsbG8=\","
            + "\"hex\":\"D6E=\",\"color\":\"dark blue\",\"colors\":[\"red\",\"red\"],\"size\":\"S\",\"maybe\":null,\"ns\":[1,-2],"
            + "\"age\":42,\"opt\":5,\"many\":[1.0,\"NaN\"]}";

    private static Class<?> compiledTypes(Path dir, URLClassLoader[] keep) throws Exception {
        Path xsd = Files.writeString(dir.resolve("types.xsd"), TYPES_XSD);
        XjcModelCompiler.Result result = XjcModelCompiler.compile(List.of(xsd), "com.example.types", dir.resolve("t.jar"));
        keep[0] = new URLClassLoader(new URL[] {result.jar().toUri().toURL()}, XjcModelCompilerTest.class.getClassLoader());
        return keep[0].loadClass("com.example.types.V");
    }

    /** Binds each record as the pipeline does; a rejected record comes back as its exception. */
    /** No schema, then the XSD as record.schema: the two ways a model compiled from it binds. */
    private static List<javax.xml.validation.Schema> withoutAndWithSchema(Path xsd) throws Exception {
        return java.util.Arrays.asList(null, io.xmlingest.core.bind.RecordSchemas.compile(List.of(xsd.toString())));
    }

    /** The records' messages, none of them rejected. */
    private static List<String> messages(Class<?> type, javax.xml.validation.Schema validating, String... records)
            throws Exception {
        List<Object> bound = bindAll(type, validating, records);
        assertThat(bound).as("schema %s", validating).noneMatch(RecordRejectedException.class::isInstance);
        return bound.stream().map(b -> new String(new JsonRecordEncoder().encode(b), StandardCharsets.UTF_8)).toList();
    }

    private static List<Object> bindAll(Class<?> type, String... records) throws Exception {
        return bindAll(type, null, records);
    }

    private static List<Object> bindAll(Class<?> type, javax.xml.validation.Schema schema, String... records)
            throws Exception {
        return bindAll(type, schema, false, records);
    }

    /** @param dropUnmapped bind as record.unmapped.content=drop does, without the unmapped-content check */
    private static List<Object> bindAll(Class<?> type, javax.xml.validation.Schema schema, boolean dropUnmapped,
                                        String... records) throws Exception {
        StringBuilder xml = new StringBuilder("<vs xmlns='urn:test' xmlns:xsi='http://www.w3.org/2001/XMLSchema-instance'>");
        for (String r : records) {
            xml.append(r).append('\n');
        }
        xml.append("</vs>");
        JaxbRecordBinder<?> binder = new JaxbRecordBinder<>(JAXBContext.newInstance(type), type, schema, dropUnmapped);
        List<Object> out = new ArrayList<>();
        try (var s = new StaxRecordSplitter(new ByteArrayInputStream(xml.toString().getBytes(StandardCharsets.UTF_8)),
                "v.xml", new QName("urn:test", "v"), XmlLimits.DEFAULTS)) {
            while (s.next()) {
                ErrorLocation where = new ErrorLocation("v.xml", s.position().recordIndex(), s.position().line(),
                        s.position().column(), s.position().byteOffset());
                try {
                    out.add(binder.bind(s.record(), where));
                } catch (RecordRejectedException e) {
                    out.add(e);
                }
            }
        }
        return out;
    }

    @Test
    void aPackageNameThatIsNoneIsRefusedAsSuch() throws Exception {
        Path xsd = Files.writeString(dir.resolve("p.xsd"), XS + "  <xs:element name='v' type='xs:string'/>\n</xs:schema>\n");
        for (String bad : List.of("1bad", "a b", "com.example.class")) {
            assertThatThrownBy(() -> XjcModelCompiler.compile(List.of(xsd), bad, dir.resolve("p.jar")))
                    .isInstanceOf(io.xmlingest.core.error.ConfigException.class)
                    .hasMessageContaining("'" + bad + "' is not a Java package name").hasMessageContaining("--package")
                    .hasMessageNotContaining("datatypes.xsd");
        }
    }

    @Test
    void xjcsAdviceIsShownAsWrittenNotHtmlEscaped() throws Exception {
        // An attribute and an element of one name: xjc asks for a jaxb:property, in a message escaped for HTML.
        Path xsd = Files.writeString(dir.resolve("clash.xsd"), XS
                + "  <xs:element name='v'><xs:complexType><xs:sequence><xs:element name='name' type='xs:string'/>"
                + "</xs:sequence><xs:attribute name='name' type='xs:string'/></xs:complexType></xs:element>\n"
                + "</xs:schema>\n");
        assertThatThrownBy(() -> XjcModelCompiler.compile(List.of(xsd), "com.example.clash", dir.resolve("c.jar")))
                .isInstanceOf(io.xmlingest.core.error.ConfigException.class)
                .hasMessageContaining("<jaxb:property>").hasMessageNotContaining("&lt;");
    }

    @Test
    void theTextOfASimpleContentExtensionOfAListIsItsTypedItemsStrictly() throws Exception {
        // xjc binds such text as a List<String>: "1 2 three" and 99999999999 were published, and 1 2 as ["1","2"].
        Path xsd = Files.writeString(dir.resolve("tl.xsd"), XS
                + "  <xs:simpleType name='Ints'><xs:list itemType='xs:int'/></xs:simpleType>\n"
                + "  <xs:element name='v'><xs:complexType><xs:simpleContent><xs:extension base='t:Ints'>"
                + "<xs:attribute name='k' type='xs:string'/></xs:extension></xs:simpleContent></xs:complexType></xs:element>\n"
                + "</xs:schema>\n");
        XjcModelCompiler.Result result = XjcModelCompiler.compile(List.of(xsd), "com.example.tl", dir.resolve("tl.jar"));
        try (URLClassLoader loader = new URLClassLoader(new URL[] {result.jar().toUri().toURL()},
                XjcModelCompilerTest.class.getClassLoader())) {
            Class<?> type = loader.loadClass("com.example.tl.V");
            assertThat(messages(type, null, "<v k='a'> 1  -2 </v>")).containsExactly("{\"k\":\"a\",\"value\":[1,-2]}");
            List<Object> bound = bindAll(type, "<v>1 2 three</v>", "<v>99999999999</v>");
            assertThat(bound.get(0)).asString().contains("'three' is not an xs:int");
            assertThat(bound.get(1)).asString().contains("'99999999999' is not an xs:int");
        }
    }

    @Test
    void validValuesOfEveryBuiltInTypeGiveTheSameJsonAsXjcsOwnBinding() throws Exception {
        URLClassLoader[] loader = new URLClassLoader[1];
        Class<?> type = compiledTypes(dir, loader);
        try (URLClassLoader ignored = loader[0]) {
            List<Object> bound = bindAll(type, "<v shade='red'>" + VALID + "</v>");
            assertThat(bound.get(0)).isNotInstanceOf(RecordRejectedException.class);
            assertThat(new String(new JsonRecordEncoder().encode(bound.get(0)), StandardCharsets.UTF_8)).isEqualTo(VALID_JSON);
            // Wrapper types in place of xjc's primitives, typed list items: the JSON schema is as before, in part:
            String schema = JsonSchemaWriter.toJson(type);
            // count has a default, so it is written when absent too.
            assertThat(schema).contains("\"required\" : [ \"count\", \"b\", \"by\", \"s\", \"n\", \"l\", \"ub\"");
            assertThat(schema.replaceAll("\\s+", "")).contains("\"ns\":{\"type\":\"array\",\"items\":{\"type\":\"integer\","
                    + "\"minimum\":-2147483648,\"maximum\":2147483647}}");
        }
    }

    @Test
    void everyInvalidOrMissingValueRejectsTheRecordNamingTheValue() throws Exception {
        // Each was bound by xjc's own classes, and published: 0, a wrapped number, false, a null, part of the text.
        String[][] cases = {
            {"<n> -2147483648\n</n>", "", "required value n is missing"},
            {"<n> -2147483648\n</n>", "<n>99999999999</n>", "'99999999999' is not an xs:int"},
            {"<n> -2147483648\n</n>", "<n>1 2</n>", "'1 2' is not an xs:int"},
            {"<n> -2147483648\n</n>", "<n>1-2</n>", "'1-2' is not an xs:int"},
            {"<s>32767</s>", "<s>70000</s>", "'70000' is not an xs:short"},
            {"<by>-128</by>", "<by>300</by>", "'300' is not an xs:byte"},
            {"<l>+9223372036854775807</l>", "<l>+-5</l>", "'+-5' is not an xs:long"},
            {"<l>+9223372036854775807</l>", "<l>\uFF17</l>", "'\uFF17' is not an xs:long"},
            {"<l>+9223372036854775807</l>", "<l>\u30007</l>", "'\u30007' is not an xs:long"},
            {"<b>1</b>", "<b>yes</b>", "'yes' is not an xs:boolean"},
            {"<b>1</b>", "<b>tru</b>", "'tru' is not an xs:boolean"},
            {"<b>1</b>", "", "required value b is missing"},
            {"<d>-.50</d>", "<d>1E5</d>", "'1E5' is not an xs:decimal"},
            {"<ui>4294967295</ui>", "<ui>-1</ui>", "'-1' is not an xs:unsignedInt"},
            {"<ub>255</ub>", "<ub>256</ub>", "'256' is not an xs:unsignedByte"},
            {"<pi>+007</pi>", "<pi>0</pi>", "'0' is not an xs:positiveInteger"},
            {"<f>1.5E3</f>", "<f>0x1p3</f>", "'0x1p3' is not an xs:float"},
            {"<db>-INF</db>", "<db>Infinity</db>", "'Infinity' is not an xs:double"},
            {"<date>1959-06-11</date>", "<date>1959-06-11T10:20:30</date>", "'1959-06-11T10:20:30' is not an xs:date"},
            {"<date>1959-06-11</date>", "<date>--06-11</date>", "'--06-11' is not an xs:date"},
            {"<dt>2024-02-29T23:59:59.250+01:00</dt>", "<dt>2024-02-29</dt>", "'2024-02-29' is not an xs:dateTime"},
            {"<gy>-0044</gy>", "<gy>2024-01</gy>", "'2024-01' is not an xs:gYear"},
            {"<bin>SGVs bG8=</bin>", "<bin>!!!notbase64</bin>", "'!!!notbase64' is not an xs:base64Binary"},
            {"<hex>0fA1</hex>", "<hex>0fA</hex>", "'0fA' is not an xs:hexBinary"},
            {"<dur>\nP1Y2M3DT4H5M6.50S </dur>", "<dur>PT1.S</dur>", "'PT1.S' is not an xs:duration"},
            {"<dur>\nP1Y2M3DT4H5M6.50S </dur>", "<dur>P1Y2MT</dur>", "'P1Y2MT' is not an xs:duration"},
            {"<dur>\nP1Y2M3DT4H5M6.50S </dur>", "<dur>P1.5Y</dur>", "'P1.5Y' is not an xs:duration"},
            {"<dur>\nP1Y2M3DT4H5M6.50S </dur>", "", "required value dur is missing"},
            {"<color>dark blue</color>", "<color>purple</color>", "'purple' is not a value of the enumeration Color"},
            {"<color>dark blue</color>", "<color> red </color>", "' red ' is not a value of the enumeration Color"},
            {"<colors>red  red</colors>", "<colors>red pink</colors>", "'pink' is not a value of the enumeration Color"},
            {"<maybe xsi:nil='true'/>", "<maybe>teal</maybe>", "'teal' is not a value of the enumeration Color"},
            {"<ns>1 -2</ns>", "<ns>1 x</ns>", "'x' is not an xs:int"},
            {"<age>42</age>", "<age>4.2</age>", "'4.2' is not an xs:int"},
            {"<opt>5</opt>", "<opt>five</opt>", "'five' is not an xs:int"},
            {"<many>NaN</many>", "<many>nan</many>", "'nan' is not an xs:double"},
        };
        URLClassLoader[] loader = new URLClassLoader[1];
        Class<?> type = compiledTypes(dir, loader);
        try (URLClassLoader ignored = loader[0]) {
            List<String> records = new ArrayList<>();
            for (String[] c : cases) {
                assertThat(VALID).contains(c[0]);
                records.add("<v shade='red'>" + VALID.replace(c[0], c[1]) + "</v>");
            }
            records.add("<v shade='green'>" + VALID + "</v>");
            records.add("<v shade='red'>" + VALID.replace("<size> S </size>", "<size> X\tL\n</size>") + "</v>");
            List<Object> bound = bindAll(type, records.toArray(String[]::new));

            for (int i = 0; i < cases.length; i++) {
                String expected = cases[i][2];
                assertThat(bound.get(i)).as("%s", cases[i][1]).isInstanceOfSatisfying(RecordRejectedException.class,
                        e -> assertThat(e.getMessage()).contains(expected, "v.xml"));
            }
            assertThat(bound.get(cases.length)).isInstanceOfSatisfying(RecordRejectedException.class,
                    e -> assertThat(e.getMessage()).contains("'green' is not a value of the enumeration Color: red, dark blue"));
            // xs:token collapses whitespace, so this one is valid (xjc's own binding dropped it).
            assertThat(new String(new JsonRecordEncoder().encode(bound.get(cases.length + 1)), StandardCharsets.UTF_8))
                    .contains("\"size\":\"X L\"");
        }
    }

    @Test
    void anEmptyElementTakesItsFixedValueAsItTakesADefault() throws Exception {
        // xjc wrote @XmlElement(defaultValue) for a default only: <fs/> was published as "" and <fi/> refused.
        Path xsd = Files.writeString(dir.resolve("fixed.xsd"), XS
                + "  <xs:element name='v'><xs:complexType><xs:sequence>\n"
                + "    <xs:element name='ds' type='xs:string' minOccurs='0' default='DEF'/>\n"
                + "    <xs:element name='fs' type='xs:string' minOccurs='0' fixed='FIXED'/>\n"
                + "    <xs:element name='fi' type='xs:int' minOccurs='0' fixed='7'/>\n"
                + "    <xs:element name='fn' type='xs:string' minOccurs='0' nillable='true' fixed='N'/>\n"
                + "    <xs:choice minOccurs='0'><xs:element name='ca' type='xs:string' fixed='A'/>"
                + "<xs:element name='cb' type='xs:int' fixed='2'/></xs:choice>\n"
                + "  </xs:sequence><xs:attribute name='fa' type='xs:string' fixed='FA'/></xs:complexType></xs:element>\n"
                + "</xs:schema>\n");
        XjcModelCompiler.Result result = XjcModelCompiler.compile(List.of(xsd), "com.example.fixed", dir.resolve("f.jar"));

        try (URLClassLoader loader = new URLClassLoader(new URL[] {result.jar().toUri().toURL()}, getClass().getClassLoader())) {
            List<Object> bound = bindAll(loader.loadClass("com.example.fixed.V"),
                    "<v><ds/><fs/><fi/><fn/><ca/></v>",
                    "<v><ds></ds><fs></fs><fi></fi><cb/></v>",
                    "<v fa='FA'><ds>d</ds><fs>FIXED</fs><fi> 7 </fi><fn>N</fn><cb>2</cb></v>",
                    "<v><fn xsi:nil='true'/></v>",
                    "<v/>");
            List<String> json = new ArrayList<>();
            for (Object b : bound) {
                assertThat(b).isNotInstanceOf(RecordRejectedException.class);
                json.add(new String(new JsonRecordEncoder().encode(b), StandardCharsets.UTF_8));
            }
            assertThat(json).containsExactly(
                    "{\"fa\":\"FA\",\"ds\":\"DEF\",\"fs\":\"FIXED\",\"fi\":7,\"fn\":\"N\",\"ca\":\"A\"}",
                    "{\"fa\":\"FA\",\"ds\":\"DEF\",\"fs\":\"FIXED\",\"fi\":7,\"cb\":2}",
                    "{\"fa\":\"FA\",\"ds\":\"d\",\"fs\":\"FIXED\",\"fi\":7,\"fn\":\"N\",\"cb\":2}",
                    // An absent element stays absent (XML Schema gives an absent element no value);
                    // an absent attribute is written with its fixed value, as with a default.
                    "{\"fa\":\"FA\",\"fn\":null}",
                    "{\"fa\":\"FA\"}");
        }
    }
    @Test
    void aNilElementWithAttributesKeepsThemAndANullValue() throws Exception {
        // JAXB keeps a nil element's attributes by binding its class, and read its value from "": the strict
        // decimal parser refused that, and a valid record was rejected.
        Path xsd = Files.writeString(dir.resolve("nil.xsd"), XS
                + "  <xs:complexType name='Money'><xs:simpleContent><xs:extension base='xs:decimal'>\n"
                + "    <xs:attribute name='cur' type='xs:string'/></xs:extension></xs:simpleContent></xs:complexType>\n"
                + "  <xs:element name='v'><xs:complexType><xs:sequence>\n"
                + "    <xs:element name='price' type='t:Money' minOccurs='0' nillable='true'/>\n"
                + "  </xs:sequence></xs:complexType></xs:element>\n"
                + "</xs:schema>\n");
        XjcModelCompiler.Result result = XjcModelCompiler.compile(List.of(xsd), "com.example.nil", dir.resolve("n.jar"));

        try (URLClassLoader loader = new URLClassLoader(new URL[] {result.jar().toUri().toURL()}, getClass().getClassLoader())) {
            List<Object> bound = bindAll(loader.loadClass("com.example.nil.V"),
                    "<v><price cur='GBP' xsi:nil='true'/></v>",
                    "<v><price xsi:nil='true'/></v>",
                    "<v><price cur='GBP'>1.50</price></v>",
                    "<v><price cur='GBP'/></v>",
                    "<v><price cur='GBP' xsi:nil='true'>1.50</price></v>");
            List<String> json = new ArrayList<>();
            for (Object b : bound) {
                json.add(b instanceof RecordRejectedException e ? e.getMessage()
                        : new String(new JsonRecordEncoder().encode(b), StandardCharsets.UTF_8));
            }
            assertThat(json.subList(0, 3)).containsExactly(
                    // A value that is null is left out, as everywhere in a model's messages.
                    "{\"price\":{\"cur\":\"GBP\"}}",
                    "{\"price\":null}",
                    "{\"price\":{\"cur\":\"GBP\",\"value\":1.50}}");
            // Not nil, an empty decimal is still no decimal; nil, it may not hold one.
            assertThat(json.get(3)).contains("'' is not an xs:decimal");
            assertThat(json.get(4)).contains("element <price> is nil (xsi:nil) but holds text \"1.50\"");
        }
    }
    /**
     * A reference to a nillable global element, the way standard schemas write most of their elements: xjc bound it to a
     * plain field, where nil and missing are both null, so a nil one was published as missing, and one with attributes
     * was refused as losing them. Compiled with the reference marked substitutable, it keeps nil as a local one does.
     */
    @Test
    void aReferenceToANillableGlobalElementIsNullWhenNilAndKeepsItsAttributes() throws Exception {
        Path xsd = Files.writeString(dir.resolve("refs.xsd"), XS
                + "  <xs:complexType name='Money'><xs:simpleContent><xs:extension base='xs:decimal'>\n"
                + "    <xs:attribute name='cur' type='xs:string'/></xs:extension></xs:simpleContent></xs:complexType>\n"
                + "  <xs:element name='memo' type='xs:string' nillable='true'/>\n"
                + "  <xs:element name='price' type='t:Money' nillable='true'/>\n"
                + "  <xs:element name='v'><xs:complexType><xs:sequence>\n"
                + "    <xs:element name='sku' type='xs:string'/>\n"
                + "    <xs:element ref='t:memo' minOccurs='0'/>\n"
                + "    <xs:element ref='t:price' minOccurs='0'/>\n"
                + "  </xs:sequence></xs:complexType></xs:element>\n"
                // Repeated, a reference keeps a nil item as null already: its list stays one of values.
                + "  <xs:element name='line' type='xs:string' nillable='true'/>\n"
                + "  <xs:element name='lines'><xs:complexType><xs:sequence>\n"
                + "    <xs:element ref='t:line' maxOccurs='unbounded'/>\n"
                + "  </xs:sequence></xs:complexType></xs:element>\n"
                + "</xs:schema>\n");
        XjcModelCompiler.Result result = XjcModelCompiler.compile(List.of(xsd), "com.example.refs", dir.resolve("r.jar"));

        try (URLClassLoader loader = new URLClassLoader(new URL[] {result.jar().toUri().toURL()}, getClass().getClassLoader())) {
            List<Object> bound = bindAll(loader.loadClass("com.example.refs.V"),
                    "<v><sku>1</sku><memo xsi:nil='true'/><price xsi:nil='true'/></v>",
                    "<v><sku>2</sku></v>",
                    "<v><sku>3</sku><memo>m</memo><price cur='GBP'>1.50</price></v>",
                    "<v><sku>4</sku><price cur='GBP' xsi:nil='true'/></v>");
            List<String> json = new ArrayList<>();
            for (Object b : bound) {
                json.add(b instanceof RecordRejectedException e ? e.getMessage()
                        : new String(new JsonRecordEncoder().encode(b), StandardCharsets.UTF_8));
            }
            assertThat(loader.loadClass("com.example.refs.Lines").getDeclaredField("line").getGenericType().getTypeName())
                    .isEqualTo("java.util.List<java.lang.String>");
            assertThat(json).containsExactly(
                    "{\"sku\":\"1\",\"memo\":null,\"price\":null}",
                    "{\"sku\":\"2\"}",
                    "{\"sku\":\"3\",\"memo\":\"m\",\"price\":{\"cur\":\"GBP\",\"value\":1.50}}",
                    "{\"sku\":\"4\",\"price\":{\"cur\":\"GBP\"}}");
        }
    }

    /** The record elements model compile offers, as local name=class. */
    private static List<String> offered(XjcModelCompiler.Result result) {
        return result.candidates().stream().map(c -> c.element().getLocalPart() + "=" + c.className()).toList();
    }

    /** A global element of a simple type binds to int or String, which no record.class can name: not offered as one. */
    @Test
    void onlyElementsThatBindToAClassOfTheModelAreOfferedAsRecords() throws Exception {
        Path xsd = Files.writeString(dir.resolve("offered.xsd"), XS
                + "  <xs:element name='note' type='xs:string'/>\n  <xs:element name='count' type='xs:int'/>\n"
                + "  <xs:element name='v'><xs:complexType><xs:sequence><xs:element ref='t:note'/></xs:sequence>"
                + "</xs:complexType></xs:element>\n</xs:schema>\n");
        XjcModelCompiler.Result result = XjcModelCompiler.compile(List.of(xsd), "com.example.offered", dir.resolve("o.jar"));
        assertThat(offered(result)).containsExactly("v=com.example.offered.V");
    }

    /**
     * An abstract element is never written in a file: offered as a record element, it found no record and the file
     * completed with none. Its substitutes, which files hold, are offered for it instead.
     */
    @Test
    void anAbstractElementIsNotOfferedAsARecordButItsSubstitutesAre() throws Exception {
        Path xsd = Files.writeString(dir.resolve("abstract.xsd"), XS
                + "  <xs:complexType name='Item' abstract='true'><xs:sequence><xs:element name='id' type='xs:string'/>"
                + "</xs:sequence></xs:complexType>\n"
                + "  <xs:complexType name='Book'><xs:complexContent><xs:extension base='t:Item'><xs:sequence>"
                + "<xs:element name='isbn' type='xs:string'/></xs:sequence></xs:extension></xs:complexContent>"
                + "</xs:complexType>\n"
                + "  <xs:element name='item' type='t:Item' abstract='true'/>\n"
                + "  <xs:element name='book' type='t:Book' substitutionGroup='t:item'/>\n"
                + "  <xs:element name='disc' substitutionGroup='t:item'><xs:complexType><xs:complexContent>"
                + "<xs:extension base='t:Item'/></xs:complexContent></xs:complexType></xs:element>\n"
                + "  <xs:element name='lonely' type='t:Item' abstract='true'/>\n</xs:schema>\n");
        XjcModelCompiler.Result result = XjcModelCompiler.compile(List.of(xsd), "com.example.abs", dir.resolve("a.jar"));
        assertThat(offered(result)).containsExactly("book=com.example.abs.Book", "disc=com.example.abs.Disc");
        assertThat(result.abstracts()).extracting(a -> a.element().getLocalPart() + ":" + a.substitutes().stream()
                .map(c -> c.element().getLocalPart()).toList()).containsExactly("item:[book, disc]", "lonely:[]");
    }

    /** xjc compiles a content model XML Schema calls ambiguous; the validator record.schema uses refuses it. */
    @Test
    void aSchemaTheValidatorRefusesCompilesWithAWarningThatRecordSchemaWouldRefuseIt() throws Exception {
        Path xsd = Files.writeString(dir.resolve("upa.xsd"), XS
                + "  <xs:element name='v'><xs:complexType><xs:sequence>\n"
                + "    <xs:element name='a' type='xs:string' minOccurs='0'/><xs:element name='a' type='xs:string'/>\n"
                + "  </xs:sequence></xs:complexType></xs:element>\n</xs:schema>\n");
        XjcModelCompiler.Result result = XjcModelCompiler.compile(List.of(xsd), "com.example.upa", dir.resolve("u.jar"));
        assertThat(result.warning()).startsWith("record.schema would refuse this schema, so records can only be bound "
                + "without validation: ").contains("cos-nonambig");
        Path fine = Files.writeString(dir.resolve("fine.xsd"), XS
                + "  <xs:element name='v' type='xs:string'/>\n</xs:schema>\n");
        assertThat(XjcModelCompiler.compile(List.of(fine), "com.example.fine", dir.resolve("f.jar")).warning()).isNull();
    }

    /** Name clashes, common in real schemas: xjc's own messages named one half of the clash, or nothing at all. */
    @Test
    void aNameClashNamesBothDeclarationsOrTheFieldAndSaysHowToRenameOne() throws Exception {
        Path factory = Files.writeString(dir.resolve("factory.xsd"), XS
                + "  <xs:element name='Name' type='xs:string'/>\n"
                + "  <xs:element name='name' type='xs:string'/>\n"
                + "</xs:schema>\n");
        assertThatThrownBy(() -> XjcModelCompiler.compile(List.of(factory), null, dir.resolve("f.jar")))
                .isInstanceOf(ConfigException.class)
                .hasMessageStartingWith(factory + ", line 2, column ")
                .hasMessageContaining("Two declarations cause a collision in the ObjectFactory class. (the other "
                        + "declaration: " + factory + ", line 3, column ")
                .hasMessageContaining("rename one with a jaxb:factoryMethod binding");

        Path field = Files.writeString(dir.resolve("field.xsd"), XS
                + "  <xs:element name='rec'><xs:complexType><xs:sequence><xs:element name='ID' type='xs:int'/>\n"
                + "  </xs:sequence><xs:attribute name='id' type='xs:string'/></xs:complexType></xs:element>\n"
                + "</xs:schema>\n");
        assertThatThrownBy(() -> XjcModelCompiler.compile(List.of(field), null, dir.resolve("g.jar")))
                .isInstanceOf(ConfigException.class)
                .hasMessageStartingWith("two properties of one class would be the same Java field, id (an element and "
                        + "an attribute whose names differ only in case, say ID and id): rename one with a jaxb:property "
                        + "binding");
    }

    /** JAXB keeps an xs:anyURI as written; XML Schema collapses its whitespace, and so does strict binding. */
    @Test
    void anAnyUriIsCollapsedAsXmlSchemaReadsIt() throws Exception {
        Path xsd = Files.writeString(dir.resolve("uris.xsd"), XS
                + "  <xs:simpleType name='Link'><xs:restriction base='xs:anyURI'><xs:maxLength value='100'/>"
                + "</xs:restriction></xs:simpleType>\n"
                + "  <xs:simpleType name='Code'><xs:restriction base='xs:string'><xs:whiteSpace value='collapse'/>"
                + "<xs:pattern value='[A-Z]{3}( [A-Z]{3})*'/></xs:restriction></xs:simpleType>\n"
                + "  <xs:simpleType name='Line'><xs:restriction base='xs:string'><xs:whiteSpace value='replace'/>"
                + "</xs:restriction></xs:simpleType>\n"
                + "  <xs:element name='v'><xs:complexType><xs:sequence>\n"
                + "    <xs:element name='u' type='xs:anyURI'/><xs:element name='link' type='t:Link' minOccurs='0'/>\n"
                + "    <xs:element name='code' type='t:Code' minOccurs='0'/><xs:element name='line' type='t:Line' minOccurs='0'/>\n"
                + "    <xs:element name='text' type='xs:string' minOccurs='0'/>\n"
                + "    <xs:element name='codes' type='t:Code' minOccurs='0' maxOccurs='unbounded'/>\n"
                + "    <xs:element name='uris' type='xs:anyURI' minOccurs='0' maxOccurs='unbounded'/>\n"
                + "  </xs:sequence><xs:attribute name='href' type='xs:anyURI'/><xs:attribute name='c' type='t:Code'/>"
                + "</xs:complexType></xs:element>\n"
                + "</xs:schema>\n");
        XjcModelCompiler.Result result = XjcModelCompiler.compile(List.of(xsd), "com.example.uris", dir.resolve("u.jar"));

        try (URLClassLoader loader = new URLClassLoader(new URL[] {result.jar().toUri().toURL()}, getClass().getClassLoader())) {
            Class<?> type = loader.loadClass("com.example.uris.V");
            String record = "<v href='  http://x.example/  ' c=' ABC  DEF '><u>\n    http://example.org/a\tb\n  </u>"
                    + "<link> http://l.example/ </link><code>\n    ABC\n  </code><line>a\tb\n c</line>"
                    + "<text> as\twritten </text><codes>\n  DEF\n</codes><codes> GHI </codes><uris>http://u/a\tb</uris></v>";
            // The string types restricted to collapse or replace their whitespace, too; a plain string keeps it.
            for (javax.xml.validation.Schema validating : withoutAndWithSchema(xsd)) {
                assertThat(messages(type, validating, record, "<v><u>http://example.org/plain</u></v>"))
                        .containsExactly("{\"href\":\"http://x.example/\",\"c\":\"ABC DEF\",\"u\":\"http://example.org/a b\","
                                + "\"link\":\"http://l.example/\",\"code\":\"ABC\",\"line\":\"a b  c\","
                                + "\"text\":\" as\\twritten \",\"codes\":[\"DEF\",\"GHI\"],\"uris\":[\"http://u/a b\"]}",
                                "{\"u\":\"http://example.org/plain\"}");
            }
            com.fasterxml.jackson.databind.JsonNode schema = new com.fasterxml.jackson.databind.ObjectMapper()
                    .readTree(JsonSchemaWriter.toJson(type));
            assertThat(schema.at("/properties/u/type").asText()).isEqualTo("string");
            assertThat(schema.at("/properties/href/type").asText()).isEqualTo("string");
        }
    }

    /**
     * xjc binds an optional nillable element as a JAXBElement and declares it on the object factory, where the
     * field's adapter does not reach: a string type collapsing or replacing its whitespace was kept as written.
     */
    @Test
    void aNillableElementOfAWhitespaceCollapsingStringTypeIsCollapsedToo() throws Exception {
        Path xsd = Files.writeString(dir.resolve("nillable.xsd"), XS
                + "  <xs:simpleType name='Code'><xs:restriction base='xs:string'><xs:whiteSpace value='collapse'/>"
                + "<xs:pattern value='[A-Z]{3}( [A-Z]{3})*'/></xs:restriction></xs:simpleType>\n"
                + "  <xs:simpleType name='Line'><xs:restriction base='xs:string'><xs:whiteSpace value='replace'/>"
                + "</xs:restriction></xs:simpleType>\n"
                + "  <xs:element name='v'><xs:complexType><xs:sequence>\n"
                + "    <xs:element name='code' type='t:Code' nillable='true' minOccurs='0'/>\n"
                + "    <xs:element name='line' type='t:Line' nillable='true' minOccurs='0'/>\n"
                + "    <xs:element name='text' type='xs:string' nillable='true' minOccurs='0'/>\n"
                + "  </xs:sequence></xs:complexType></xs:element>\n"
                + "</xs:schema>\n");
        XjcModelCompiler.Result result = XjcModelCompiler.compile(List.of(xsd), "com.example.nillable", dir.resolve("n.jar"));

        try (URLClassLoader loader = new URLClassLoader(new URL[] {result.jar().toUri().toURL()}, getClass().getClassLoader())) {
            Class<?> type = loader.loadClass("com.example.nillable.V");
            String record = "<v><code>\n    ABC\n    DEF  </code><line>a\tb\n c</line><text> as\twritten </text></v>";
            for (javax.xml.validation.Schema validating : withoutAndWithSchema(xsd)) {
                assertThat(messages(type, validating, record, "<v><code xsi:nil='true'/></v>"))
                        .containsExactly("{\"code\":\"ABC DEF\",\"line\":\"a b  c\",\"text\":\" as\\twritten \"}",
                                "{\"code\":null}");
            }
        }
    }

    /**
     * xjc gives a type derived from xs:normalizedString NormalizedStringAdapter, which only replaces, even when the
     * type is restricted to collapse: the plugin left any field or declaration with an adapter alone, so
     * "\n  P\n  Q " was published as "   P   Q ", with record.schema too, which reads it as "P Q".
     */
    @Test
    void aNormalizedStringTypeRestrictedToCollapseIsCollapsedSingleRepeatedAndNillable() throws Exception {
        Path xsd = Files.writeString(dir.resolve("ntok.xsd"), XS
                + "  <xs:simpleType name='NTok'><xs:restriction base='xs:normalizedString'><xs:whiteSpace value='collapse'/>"
                + "</xs:restriction></xs:simpleType>\n"
                // Derived further with no facet of its own: the collapse above it is still in effect.
                + "  <xs:simpleType name='Short'><xs:restriction base='t:NTok'><xs:maxLength value='20'/>"
                + "</xs:restriction></xs:simpleType>\n"
                + "  <xs:element name='v'><xs:complexType><xs:sequence>\n"
                + "    <xs:element name='one' type='t:NTok' minOccurs='0'/>\n"
                + "    <xs:element name='many' type='t:Short' minOccurs='0' maxOccurs='unbounded'/>\n"
                + "    <xs:element name='nil' type='t:NTok' nillable='true' minOccurs='0'/>\n"
                + "    <xs:element name='norm' type='xs:normalizedString' minOccurs='0'/>\n"
                + "  </xs:sequence><xs:attribute name='a' type='t:Short'/></xs:complexType></xs:element>\n"
                + "</xs:schema>\n");
        XjcModelCompiler.Result result = XjcModelCompiler.compile(List.of(xsd), "com.example.ntok", dir.resolve("t.jar"));

        try (URLClassLoader loader = new URLClassLoader(new URL[] {result.jar().toUri().toURL()}, getClass().getClassLoader())) {
            Class<?> type = loader.loadClass("com.example.ntok.V");
            String record = "<v a=' A\tB '><one>\n  P\n  Q </one><many>\n  R\n</many><many> S  T </many>"
                    + "<nil>\n  P\n  Q </nil><norm>a\tb\n c</norm></v>";
            for (javax.xml.validation.Schema validating : withoutAndWithSchema(xsd)) {
                // xs:normalizedString itself only replaces.
                assertThat(messages(type, validating, record, "<v><nil xsi:nil='true'/></v>"))
                        .as("schema %s", validating)
                        .containsExactly("{\"a\":\"A B\",\"one\":\"P Q\",\"many\":[\"R\",\"S T\"],\"nil\":\"P Q\","
                                + "\"norm\":\"a b  c\"}", "{\"nil\":null}");
            }
        }
    }

    @Test
    void anIdrefIsWrittenAsTheIdItNames() throws Exception {
        // JAXB binds an xs:IDREF to the object it names: the encoder wrote a copy of that object where the file had
        // "b", and two items naming each other went round until the record was refused.
        Path xsd = Files.writeString(dir.resolve("refs.xsd"), XS
                + "  <xs:element name='v'><xs:complexType><xs:sequence>\n"
                + "    <xs:element name='item' maxOccurs='unbounded'><xs:complexType><xs:sequence>\n"
                + "      <xs:element name='ref' type='xs:IDREF' minOccurs='0'/></xs:sequence>\n"
                + "      <xs:attribute name='iid' type='xs:ID' use='required'/></xs:complexType></xs:element>\n"
                + "    <xs:element name='refs' type='xs:IDREFS' minOccurs='0'/>\n"
                + "  </xs:sequence><xs:attribute name='main' type='xs:IDREF' use='required'/></xs:complexType></xs:element>\n"
                + "</xs:schema>\n");
        XjcModelCompiler.Result result = XjcModelCompiler.compile(List.of(xsd), "com.example.refs", dir.resolve("r.jar"));

        try (URLClassLoader loader = new URLClassLoader(new URL[] {result.jar().toUri().toURL()}, getClass().getClassLoader())) {
            Class<?> type = loader.loadClass("com.example.refs.V");
            List<Object> bound = bindAll(type,
                    "<v main='a'><item iid='a'><ref>b</ref></item><item iid='b'><ref>a</ref></item><refs>b a</refs></v>");
            assertThat(bound.get(0)).isNotInstanceOf(RecordRejectedException.class);
            assertThat(new String(new JsonRecordEncoder().encode(bound.get(0)), StandardCharsets.UTF_8)).isEqualTo(
                    "{\"main\":\"a\",\"item\":[{\"iid\":\"a\",\"ref\":\"b\"},{\"iid\":\"b\",\"ref\":\"a\"}],"
                    + "\"refs\":[\"b\",\"a\"]}");
            com.fasterxml.jackson.databind.JsonNode schema = new com.fasterxml.jackson.databind.ObjectMapper()
                    .readTree(JsonSchemaWriter.toJson(type));
            assertThat(schema.at("/properties/main/type").asText()).isEqualTo("string");
            assertThat(schema.at("/properties/refs/items/type").asText()).isEqualTo("string");

            // Records are bound one by one, so one may name an ID of another: it was refused ("Undefined ID"), with
            // record.schema too (cvc-id.1), and is written as the ID it names, as one within the record is.
            String foreign = "<v main='forward'><item iid='a'><ref>other</ref></item><item iid='forward'/>"
                    + "<refs>a other</refs></v>";
            for (javax.xml.validation.Schema validating : withoutAndWithSchema(xsd)) {
                List<Object> across = bindAll(type, validating, foreign);
                assertThat(across.get(0)).as("schema %s", validating).isNotInstanceOf(RecordRejectedException.class);
                assertThat(new String(new JsonRecordEncoder().encode(across.get(0)), StandardCharsets.UTF_8)).isEqualTo(
                        "{\"main\":\"forward\",\"item\":[{\"iid\":\"a\",\"ref\":\"other\"},{\"iid\":\"forward\"}],"
                        + "\"refs\":[\"a\",\"other\"]}");
            }
        }
    }

    /** xjc marks a choice's IDREF alternative on its object factory, not a field: it was written as "ForeignReference[id=other]". */
    @Test
    void anIdrefAlternativeOfAChoiceNamingAnotherRecordsIdIsWrittenAsTheId() throws Exception {
        Path xsd = Files.writeString(dir.resolve("choice.xsd"), XS
                + "  <xs:element name='v'><xs:complexType><xs:choice maxOccurs='unbounded'>\n"
                + "    <xs:element name='to' type='xs:IDREF'/><xs:element name='note' type='xs:string'/>\n"
                + "  </xs:choice></xs:complexType></xs:element>\n</xs:schema>\n");
        XjcModelCompiler.Result result = XjcModelCompiler.compile(List.of(xsd), "com.example.choice", dir.resolve("c.jar"));
        try (URLClassLoader loader = new URLClassLoader(new URL[] {result.jar().toUri().toURL()}, getClass().getClassLoader())) {
            Class<?> type = loader.loadClass("com.example.choice.V");
            List<Object> bound = bindAll(type, "<v><to>other</to><note>n</note></v>");
            assertThat(bound.get(0)).isNotInstanceOf(RecordRejectedException.class);
            assertThat(new String(new JsonRecordEncoder().encode(bound.get(0)), StandardCharsets.UTF_8))
                    .isEqualTo("{\"toOrNote\":[{\"to\":\"other\"},{\"note\":\"n\"}]}");
        }
    }

    /**
     * JAXB binds an IDREF to the object with that ID when the record holds it, and xjc marks a choice's IDREF
     * alternative, or an optional nillable IDREF element, on its object factory, not a field: such a reference to
     * an ID earlier in the record was written as a copy of the object it names, and one naming its own item threw
     * StackOverflowError from the binder, whose required-value check followed it round.
     */
    @Test
    void anIdrefOnlyItsObjectFactoryMarksNamingAnIdOfItsRecordIsWrittenAsTheId() throws Exception {
        Path xsd = Files.writeString(dir.resolve("within.xsd"), XS
                + "  <xs:element name='v'><xs:complexType><xs:sequence>\n"
                + "    <xs:element name='item' maxOccurs='unbounded'><xs:complexType>\n"
                + "      <xs:choice minOccurs='0' maxOccurs='unbounded'>\n"
                + "        <xs:element name='to' type='xs:IDREF'/><xs:element name='note' type='xs:string'/></xs:choice>\n"
                + "      <xs:attribute name='iid' type='xs:ID' use='required'/></xs:complexType></xs:element>\n"
                + "    <xs:element name='last' type='xs:IDREF' nillable='true' minOccurs='0'/>\n"
                // Its object factory declares another <to>, local to another type, that is no IDREF.
                + "    <xs:element name='memo' minOccurs='0'><xs:complexType><xs:choice maxOccurs='unbounded'>\n"
                + "      <xs:element name='to' type='xs:string'/><xs:element name='cc' type='xs:string'/>\n"
                + "    </xs:choice></xs:complexType></xs:element>\n"
                + "  </xs:sequence></xs:complexType></xs:element>\n</xs:schema>\n");
        XjcModelCompiler.Result result = XjcModelCompiler.compile(List.of(xsd), "com.example.within", dir.resolve("w.jar"));
        try (URLClassLoader loader = new URLClassLoader(new URL[] {result.jar().toUri().toURL()}, getClass().getClassLoader())) {
            Class<?> type = loader.loadClass("com.example.within.V");
            String record = "<v><item iid='a'><note>n</note><to>b</to></item>"
                    + "<item iid='b'><to>a</to><to>b</to><to>other</to></item><last>a</last><memo><to>a</to></memo></v>";
            for (javax.xml.validation.Schema validating : withoutAndWithSchema(xsd)) {
                assertThat(messages(type, validating, record, "<v><item iid='c'/><last xsi:nil='true'/></v>"))
                        .containsExactly("{\"item\":[{\"iid\":\"a\",\"toOrNote\":[{\"note\":\"n\"},{\"to\":\"b\"}]},"
                                + "{\"iid\":\"b\",\"toOrNote\":[{\"to\":\"a\"},{\"to\":\"b\"},{\"to\":\"other\"}]}],"
                                + "\"last\":\"a\",\"memo\":{\"toOrCc\":[{\"to\":\"a\"}]}}",
                                "{\"item\":[{\"iid\":\"c\"}],\"last\":null}");
            }
            com.fasterxml.jackson.databind.JsonNode schema = new com.fasterxml.jackson.databind.ObjectMapper()
                    .readTree(JsonSchemaWriter.toJson(type));
            assertThat(schema.at("/properties/last/anyOf/0/type").asText()).isEqualTo("string");
            assertThat(schema.at("/properties/last/anyOf/1/type").asText()).isEqualTo("null");
            assertThat(schema.at("/$defs/Item/properties/toOrNote/items/anyOf/0/properties/to/type").asText())
                    .isEqualTo("string");
        }
    }

    /**
     * An xs:IDREFS that only its object factory marks is a list of IDs: the encoder wrote {"tos":["a","b"]} and
     * "last":[["a","b"]] while the JSON Schema said a string, and a string or null, so consumers refused them.
     */
    @Test
    void anIdrefsOnlyItsObjectFactoryMarksIsDescribedAsTheArrayOfIdsItIsWrittenAs() throws Exception {
        Path xsd = Files.writeString(dir.resolve("lists.xsd"), XS
                + "  <xs:element name='v'><xs:complexType><xs:sequence>\n"
                + "    <xs:element name='item' maxOccurs='unbounded'><xs:complexType>\n"
                + "      <xs:choice minOccurs='0' maxOccurs='unbounded'>\n"
                + "        <xs:element name='tos' type='xs:IDREFS'/><xs:element name='note' type='xs:string'/></xs:choice>\n"
                + "      <xs:attribute name='iid' type='xs:ID' use='required'/></xs:complexType></xs:element>\n"
                + "    <xs:element name='last' type='xs:IDREFS' nillable='true' minOccurs='0'/>\n"
                + "  </xs:sequence></xs:complexType></xs:element>\n</xs:schema>\n");
        XjcModelCompiler.Result result = XjcModelCompiler.compile(List.of(xsd), "com.example.lists", dir.resolve("l.jar"));
        try (URLClassLoader loader = new URLClassLoader(new URL[] {result.jar().toUri().toURL()}, getClass().getClassLoader())) {
            Class<?> type = loader.loadClass("com.example.lists.V");
            com.fasterxml.jackson.databind.ObjectMapper json = new com.fasterxml.jackson.databind.ObjectMapper();
            String schemaText = JsonSchemaWriter.toJson(type);
            com.networknt.schema.JsonSchema schema = com.networknt.schema.JsonSchemaFactory
                    .getInstance(com.networknt.schema.SpecVersion.VersionFlag.V202012).getSchema(schemaText);
            String record = "<v><item iid='a'><note>n</note><tos>a b</tos></item>"
                    + "<item iid='b'><tos>a other</tos></item><last>a b</last></v>";
            for (javax.xml.validation.Schema validating : withoutAndWithSchema(xsd)) {
                List<String> messages = messages(type, validating, record,
                        "<v><item iid='c'/><last xsi:nil='true'/></v>");
                assertThat(messages).containsExactly(
                        "{\"item\":[{\"iid\":\"a\",\"tosOrNote\":[{\"note\":\"n\"},{\"tos\":[\"a\",\"b\"]}]},"
                                + "{\"iid\":\"b\",\"tosOrNote\":[{\"tos\":[\"a\",\"other\"]}]}],\"last\":[[\"a\",\"b\"]]}",
                        // JAXB hands a nil IDREFS over as an empty list, not marked nil; the binder marks it.
                        "{\"item\":[{\"iid\":\"c\"}],\"last\":[null]}");
                for (String message : messages) {
                    assertThat(schema.validate(json.readTree(message))).as(message).isEmpty();
                }
            }
            // Without the unmapped-content check, which is what sees the mark, the list JAXB made stays (README).
            Object dropped = bindAll(type, null, true, "<v><item iid='c'/><last xsi:nil='true'/></v>").get(0);
            assertThat(new String(new JsonRecordEncoder().encode(dropped), StandardCharsets.UTF_8))
                    .isEqualTo("{\"item\":[{\"iid\":\"c\"}],\"last\":[[]]}");
            com.fasterxml.jackson.databind.JsonNode tree = json.readTree(schemaText);
            assertThat(tree.at("/$defs/Item/properties/tosOrNote/items/anyOf/0/properties/tos/type").asText())
                    .isEqualTo("array");
            assertThat(tree.at("/$defs/Item/properties/tosOrNote/items/anyOf/0/properties/tos/items/type").asText())
                    .isEqualTo("string");
            assertThat(tree.at("/properties/last/items/anyOf/0/items/type").asText()).isEqualTo("string");
            assertThat(tree.at("/properties/last/items/anyOf/1/type").asText()).isEqualTo("null");
            // A single ID where a list is is still refused.
            assertThat(schema.validate(json.readTree("{\"item\":[{\"iid\":\"c\",\"tosOrNote\":[{\"tos\":\"a\"}]}]}")))
                    .isNotEmpty();
            assertThat(schema.validate(json.readTree("{\"item\":[{\"iid\":\"c\"}],\"last\":[\"a\"]}"))).isNotEmpty();
        }
    }
}
