package io.xmlingest.app.model;

import com.sun.codemodel.JCodeModel;
import com.sun.tools.xjc.api.ErrorListener;
import com.sun.tools.xjc.api.Mapping;
import com.sun.tools.xjc.api.S2JJAXBModel;
import com.sun.tools.xjc.api.SchemaCompiler;
import com.sun.tools.xjc.api.XJC;
import io.xmlingest.core.bind.XsdLexical;
import io.xmlingest.core.error.ConfigException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import java.util.stream.Stream;
import javax.tools.Diagnostic;
import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;
import javax.xml.XMLConstants;
import javax.xml.namespace.QName;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.parsers.ParserConfigurationException;
import javax.xml.stream.Location;
import javax.xml.stream.XMLInputFactory;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamReader;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;
import org.xml.sax.SAXException;
import org.xml.sax.SAXParseException;

/**
 * Turns XML Schema files into a jar of JAXB classes, as xjc and javac would, in one step and
 * without the network: a schema that names anything other than a local file is refused. The
 * classes bind strictly, as the sample model's do: xjc gets the sample's global bindings
 * ({@code strict.xjb} of ingest-core: strict parsers, wrapper types) and {@link StrictModelPlugin}.
 */
public final class XjcModelCompiler {

    /** A global element of the schema: a value for record.element, and the class it binds to. */
    public record Candidate(QName element, String className) {
    }

    /**
     * An abstract global element, which no file holds: the elements that stand for it in files, and their classes.
     *
     * @param substitutes the concrete members of its substitution group, in name order (none when it has none)
     */
    public record AbstractElement(QName element, List<Candidate> substitutes) {
    }

    /**
     * @param candidates the global elements that may be records, abstract ones left out
     * @param abstracts  the abstract global elements that bind to a class, with what stands for them
     * @param warning    what the user should know about the model (that it binds leniently), or null
     */
    public record Result(Path jar, int classes, List<Candidate> candidates, List<AbstractElement> abstracts,
                         String warning) {
    }

    private static final String STRICT_BINDINGS = "strict.xjb";

    private XjcModelCompiler() {
    }

    /**
     * @param packageName the package of every generated class, or null for xjc's choice (from the namespace)
     * @throws ConfigException naming --xsd, the file, line and column when a schema is wrong
     */
    public static Result compile(List<Path> schemas, String packageName, Path jar) {
        if (packageName != null && !javax.lang.model.SourceVersion.isName(packageName)) {
            // xjc reported it against a schema of its own, "datatypes.xsd", that no user has.
            throw new ConfigException("--package", "'" + packageName + "' is not a Java package name: dot-separated "
                    + "identifiers that are not Java keywords, such as com.example.model");
        }
        Path work;
        try {
            work = Files.createTempDirectory("xmlingest-model");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        try {
            Path sources = Files.createDirectories(work.resolve("src"));
            Path classes = Files.createDirectories(work.resolve("classes"));
            Element strict = strictBindings();
            S2JJAXBModel model;
            String warning = null;
            List<String> unenforced = new ArrayList<>();
            Map<QName, List<QName>> abstracts = new java.util.TreeMap<>(Comparator.comparing(QName::toString));
            try {
                model = bind(schemas, packageName, strict, unenforced, abstracts);
            } catch (ConfigException e) {
                if (!e.getMessage().contains("globalBindings")) {
                    throw e;
                }
                // xjc takes one jaxb:globalBindings per compilation, and the schema brings its own: compiled with
                // those instead, its numbers, dates and booleans bind with JAXB's lenient parsers.
                unenforced.clear();
                model = bind(schemas, packageName, null, unenforced, abstracts);
                warning = "the schema has its own jaxb:globalBindings, and xjc takes only one, so the model was "
                        + "compiled without xmlingest's strict bindings: a number, date or boolean JAXB cannot read "
                        + "may bind as null, 0 or false instead of rejecting the record. Set record.schema to this "
                        + "XSD to validate every record, or remove the schema's globalBindings";
            }
            JCodeModel code = model.generateCode(null, new Errors());
            code.build(sources.toFile(), new PrintStream(OutputStream.nullOutputStream()));
            compileJava(sources, classes);
            int count = writeJar(classes, jar);
            List<Candidate> candidates = new ArrayList<>();
            for (Mapping m : model.getMappings()) {
                com.sun.codemodel.JType type = m.getType().getTypeClass();
                // A global element of a simple type binds to int or String, which no record.class can name.
                if (!type.isPrimitive() && !type.fullName().startsWith("java.") && !type.fullName().startsWith("javax.")) {
                    candidates.add(new Candidate(m.getElement(), type.fullName()));
                }
            }
            candidates.sort(Comparator.comparing(c -> c.element().toString()));
            // An abstract element is never in a file: offered as a record element, it found no record. What stands for
            // it is offered in its place.
            List<AbstractElement> abstractOnes = new ArrayList<>();
            Map<QName, Candidate> byElement = new HashMap<>();
            candidates.forEach(c -> byElement.put(c.element(), c));
            for (Map.Entry<QName, List<QName>> a : abstracts.entrySet()) {
                if (byElement.containsKey(a.getKey())) {
                    abstractOnes.add(new AbstractElement(a.getKey(), a.getValue().stream().map(byElement::get)
                            .filter(java.util.Objects::nonNull).toList()));
                }
            }
            candidates.removeIf(c -> abstracts.containsKey(c.element()));
            if (!unenforced.isEmpty()) {
                String enums = "these properties are restricted to an enumeration that xjc binds to its base type, not "
                        + "a Java enum (values it cannot name, such as \"\" or \"a b\", or numbers), so a value outside it "
                        + "binds unless record.schema names this XSD: "
                        + String.join(", ", unenforced.subList(0, Math.min(10, unenforced.size())))
                        + (unenforced.size() > 10 ? ", ..." : "");
                warning = warning == null ? enums : warning + "; " + enums;
            }
            String refused = refusedAsRecordSchema(schemas);
            if (refused != null) {
                warning = warning == null ? refused : warning + "; " + refused;
            }
            return new Result(jar, count, candidates, abstractOnes, warning);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } finally {
            deleteQuietly(work);
        }
    }

    /**
     * Why the JDK's validator, which record.schema uses, refuses these schemas, or null: xjc compiles some that XML
     * Schema forbids (an ambiguous content model, say), and the model would then run only without record.schema.
     */
    private static String refusedAsRecordSchema(List<Path> schemas) {
        List<String> xsds = schemas.stream().filter(f -> !f.getFileName().toString().endsWith(".xjb"))
                .map(Path::toString).toList();
        try {
            io.xmlingest.core.bind.RecordSchemas.compile(xsds);
            return null;
        } catch (ConfigException e) {
            return "record.schema would refuse this schema, so records can only be bound without validation: "
                    + e.reason();
        }
    }

    /**
     * The model, compiled a second time where xjc bound a reference to a nillable global element to a plain field
     * (see {@link NillableReferences}): marked substitutable, each binds to a {@code JAXBElement} that keeps the nil.
     */
    private static S2JJAXBModel bind(List<Path> schemas, String packageName, Element strict, List<String> unenforced,
                                     Map<QName, List<QName>> abstracts) {
        List<QName> nillableReferences = new ArrayList<>();
        S2JJAXBModel model = bind(schemas, packageName, strict, unenforced, abstracts, List.of(), nillableReferences);
        if (nillableReferences.isEmpty()) {
            return model;
        }
        unenforced.clear();
        return bind(schemas, packageName, strict, unenforced, abstracts, nillableReferences, new ArrayList<>());
    }

    private static S2JJAXBModel bind(List<Path> schemas, String packageName, Element strict, List<String> unenforced,
                                     Map<QName, List<QName>> abstracts, List<QName> substitutable,
                                     List<QName> nillableReferences) {
        SchemaCompiler xjc = XJC.createSchemaCompiler();
        Errors errors = new Errors();
        xjc.setErrorListener(errors);
        xjc.setEntityResolver((publicId, systemId) -> {
            if (systemId != null && !systemId.startsWith("file:")) {
                // An IOException, not a SAXException: xjc reports the former through the error listener with
                // the position of the include or import that names it, and only prints a stack trace for the latter.
                throw new IOException("refusing to fetch " + systemId + ": schemas are compiled from local files "
                        + "only; download it and point schemaLocation at the copy");
            }
            Path local = systemId == null ? null : localFile(systemId);
            if (local != null && !Files.exists(local)) {
                // Thrown here, it is reported at the include or import that names it; left to xjc, without a position.
                throw new IOException("the schema it names, " + local + ", does not exist");
            }
            return null;
        });
        if (packageName != null) {
            xjc.forcePackageName(packageName);
        }
        if (strict != null) {
            // Any absolute URI will do: it only names the file in xjc's messages.
            xjc.parseSchema("urn:xmlingest:" + STRICT_BINDINGS, strict);
        }
        // bind() runs the active plugins; generateCode's own plugin argument is ignored. Without the strict
        // bindings, lists keep xjc's own item types and only enumerations are made strict.
        if (!substitutable.isEmpty()) {
            // xjc's own customization, which its extension mode lets a binding document use.
            xjc.getOptions().compatibilityMode = com.sun.tools.xjc.Options.EXTENSION;
            xjc.parseSchema("urn:xmlingest:nillable-references.xjb", NillableReferences.bindings(substitutable));
        }
        xjc.getOptions().activePlugins.add(new StrictModelPlugin(strict == null ? Map.of() : conversions(strict),
                unenforced, nillableReferences, abstracts));
        for (Path schema : schemas) {
            if (!Files.isReadable(schema)) {
                throw new ConfigException("--xsd", "cannot read schema " + schema.toAbsolutePath());
            }
            parse(xjc, errors, schema);
        }
        errors.throwFirst();
        S2JJAXBModel model;
        try {
            model = xjc.bind();
        } catch (RuntimeException | InternalError e) {
            // XSOM reports an unresolved reference, then fails on it while building the model.
            errors.throwFirst();
            java.util.regex.Matcher twice = java.util.regex.Pattern.compile("trying to create the same field twice: (\\S+)")
                    .matcher(String.valueOf(e.getMessage()));
            if (twice.find()) {
                // xjc's code model fails on it without a position: an element and an attribute, say, whose names differ
                // only in case (ID and id) both become the field of one name.
                throw new ConfigException("--xsd", "two properties of one class would be the same Java field, "
                        + twice.group(1) + " (an element and an attribute whose names differ only in case, say ID and "
                        + "id): rename one with a jaxb:property binding, in the schema (<xs:annotation><xs:appinfo>"
                        + "<jaxb:property name=\"idAttribute\"/></xs:appinfo></xs:annotation>, with xmlns:jaxb=\""
                        + "https://jakarta.ee/xml/ns/jaxb\" jaxb:version=\"3.0\" on xs:schema) or in a bindings file "
                        + "(.xjb) given as another --xsd");
            }
            throw new ConfigException("--xsd", "the schema does not compile to a JAXB model: " + e);
        }
        errors.throwFirst();
        if (model == null) {
            throw new ConfigException("--xsd", "the schema does not compile to a JAXB model");
        }
        return model;
    }

    /** The global bindings ingest-core builds its sample model with, handed to xjc as an external binding file. */
    private static Element strictBindings() {
        URL bindings = XsdLexical.class.getResource(STRICT_BINDINGS);
        if (bindings == null) {
            throw new IllegalStateException(STRICT_BINDINGS + " is missing from ingest-core's classes");
        }
        try (InputStream in = bindings.openStream()) {
            DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
            factory.setNamespaceAware(true);
            factory.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
            return factory.newDocumentBuilder().parse(in).getDocumentElement();
        } catch (IOException | ParserConfigurationException | SAXException e) {
            throw new IllegalStateException("cannot read " + bindings, e);
        }
    }

    /** The javaType bindings of strict.xjb by built-in type name ("xs:int" gives "int"). */
    private static Map<String, StrictModelPlugin.Conversion> conversions(Element bindings) {
        Map<String, StrictModelPlugin.Conversion> conversions = new HashMap<>();
        NodeList javaTypes = bindings.getElementsByTagNameNS("https://jakarta.ee/xml/ns/jaxb", "javaType");
        for (int i = 0; i < javaTypes.getLength(); i++) {
            Element t = (Element) javaTypes.item(i);
            String xmlType = t.getAttribute("xmlType");
            conversions.put(xmlType.substring(xmlType.indexOf(':') + 1), new StrictModelPlugin.Conversion(
                    t.getAttribute("name"), t.getAttribute("parseMethod"), t.getAttribute("printMethod")));
        }
        return conversions;
    }

    /**
     * Hands the file to xjc as a StAX stream: for an InputSource xjc prints the stack trace of any
     * failure to stderr besides reporting it, and a refused schemaLocation would then bury its own
     * one-line reason. DTDs and external entities are off, so the stream itself reads nothing else.
     */
    private static void parse(SchemaCompiler xjc, Errors errors, Path schema) {
        String systemId = schema.toAbsolutePath().toUri().toString();
        XMLInputFactory factory = XMLInputFactory.newFactory();
        factory.setProperty(XMLInputFactory.SUPPORT_DTD, false);
        factory.setProperty(XMLInputFactory.IS_SUPPORTING_EXTERNAL_ENTITIES, false);
        try (InputStream in = Files.newInputStream(schema)) {
            XMLStreamReader reader = factory.createXMLStreamReader(systemId, in);
            try {
                xjc.parseSchema(systemId, reader);
            } finally {
                reader.close();
            }
        } catch (XMLStreamException e) {
            // A failure xjc reported to the listener (a refused schemaLocation) comes back wrapped; its report
            // has the position of the include or import, so that is the one to show.
            errors.throwFirst();
            Location at = e.getLocation();
            throw new ConfigException("--xsd", schema + (at == null ? "" : ", line " + at.getLineNumber() + ", column "
                    + at.getColumnNumber()) + ": " + e.getMessage());
        } catch (IOException e) {
            throw new ConfigException("--xsd", "cannot read schema " + schema.toAbsolutePath() + ": " + e.getMessage());
        }
    }

    /** The local file a file: URI names (file:///tmp/a.xsd is /tmp/a.xsd); null for any other system id. */
    private static Path localFile(String systemId) {
        try {
            return systemId.startsWith("file:") ? Path.of(java.net.URI.create(systemId)) : null;
        } catch (IllegalArgumentException | java.nio.file.FileSystemNotFoundException e) {
            return null;
        }
    }

    /**
     * Keeps the first error: later ones tend to follow from it. xjc places some in its own built-in
     * schema (datatypes.xsd, a name with no file behind it) and reports the user's line that causes
     * them as the next error ("The following location is relevant to the above error"): that line is
     * the one given.
     */
    private static final class Errors implements ErrorListener {
        private SAXParseException first;
        private SAXParseException located;
        // xjc's "(Related to above error)" report right after the first: where the other half of a clash is.
        private SAXParseException related;
        private int seen;

        @Override
        public void error(SAXParseException e) {
            seen++;
            if (first == null) {
                first = e;
            } else if (seen == 2 && String.valueOf(e.getMessage()).startsWith("(Related to above error)")) {
                related = e;
            }
            if (located == null && e.getSystemId() != null) {
                Path local = localFile(e.getSystemId());
                if (local != null && Files.isRegularFile(local)) {
                    located = e;
                }
            }
        }

        @Override
        public void fatalError(SAXParseException e) {
            error(e);
        }

        @Override
        public void warning(SAXParseException e) {
        }

        @Override
        public void info(SAXParseException e) {
        }

        void throwFirst() {
            if (first != null) {
                Path firstFile = first.getSystemId() == null ? null : localFile(first.getSystemId());
                SAXParseException at = firstFile != null && !Files.isRegularFile(firstFile) && located != null
                        ? located : first;
                Path local = at.getSystemId() == null ? null : localFile(at.getSystemId());
                String file = at.getSystemId() == null ? "schema" : local != null ? local.toString() : at.getSystemId();
                String other = "";
                if (related != null) {
                    Path relatedFile = related.getSystemId() == null ? null : localFile(related.getSystemId());
                    other = " (the other declaration: " + (relatedFile == null ? "" : relatedFile + ", ") + "line "
                            + related.getLineNumber() + ", column " + related.getColumnNumber() + ")";
                }
                String message = unescaped(first.getMessage());
                if (message != null && message.contains("collision in the ObjectFactory class")) {
                    // Two elements whose factory methods would have one name (Name and name, or one name in two namespaces
                    // compiled into one --package): xjc's own advice is not in its message.
                    message += other + "; compile without --package if two namespaces declare the name, or rename one "
                            + "with a jaxb:factoryMethod binding";
                    other = "";
                }
                throw new ConfigException("--xsd", file + ", line " + at.getLineNumber() + ", column "
                        + at.getColumnNumber() + ": " + message + other);
            }
        }

        /** xjc writes some messages for HTML ("Use &lt;jaxb:property> to resolve this conflict"); a terminal is not one. */
        private static String unescaped(String message) {
            return message == null ? null : message.replace("&lt;", "<").replace("&gt;", ">").replace("&quot;", "\"")
                    .replace("&apos;", "'").replace("&amp;", "&");
        }
    }

    private static void compileJava(Path sources, Path classes) throws IOException {
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        if (javac == null) {
            throw new ConfigException("--xsd", "compiling the model needs a JDK (this Java, "
                    + System.getProperty("java.home") + ", has no compiler); run 'model compile' with a JDK's java");
        }
        List<Path> files;
        try (Stream<Path> walk = Files.walk(sources)) {
            files = walk.filter(p -> p.toString().endsWith(".java")).toList();
        }
        DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
        try (StandardJavaFileManager fm = javac.getStandardFileManager(diagnostics, null, StandardCharsets.UTF_8)) {
            List<String> options = List.of("-d", classes.toString(), "-classpath", System.getProperty("java.class.path"),
                    "-encoding", "UTF-8", "-proc:none", "-nowarn", "--release", "17");
            boolean ok = javac.getTask(null, fm, diagnostics, options, null, fm.getJavaFileObjectsFromPaths(files)).call();
            if (!ok) {
                Diagnostic<? extends JavaFileObject> d = diagnostics.getDiagnostics().stream()
                        .filter(x -> x.getKind() == Diagnostic.Kind.ERROR).findFirst().orElse(null);
                throw new ConfigException("--xsd", "the classes xjc generated do not compile: "
                        + (d == null ? "unknown error" : d.getMessage(null)));
            }
        }
    }

    private static int writeJar(Path classes, Path jar) throws IOException {
        Manifest manifest = new Manifest();
        manifest.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        manifest.getMainAttributes().putValue("Created-By", "xmlingest model compile");
        Path parent = jar.toAbsolutePath().getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        int count = 0;
        List<Path> files;
        try (Stream<Path> walk = Files.walk(classes)) {
            files = walk.filter(Files::isRegularFile).sorted().toList();
        }
        try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar), manifest)) {
            for (Path f : files) {
                String name = classes.relativize(f).toString().replace('\\', '/');
                out.putNextEntry(new JarEntry(name));
                Files.copy(f, out);
                out.closeEntry();
                count += name.endsWith(".class") ? 1 : 0;
            }
        }
        return count;
    }

    private static void deleteQuietly(Path dir) {
        try (Stream<Path> walk = Files.walk(dir)) {
            walk.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            // a temporary directory left behind is harmless
        }
    }
}
