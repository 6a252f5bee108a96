package io.xmlingest.core.pipeline;

import io.xmlingest.core.bind.ModelClasses;
import io.xmlingest.core.bind.RecordSchemas;
import io.xmlingest.core.config.IngestConfig;
import io.xmlingest.core.config.IngestSettings;
import io.xmlingest.core.config.Setting;
import io.xmlingest.core.encode.RecordKeys;
import io.xmlingest.core.error.ConfigException;
import io.xmlingest.core.jaxb.FieldBoundModel;
import io.xmlingest.core.jaxb.ObjectFactories;
import io.xmlingest.core.publish.TopicNames;
import io.xmlingest.core.jaxb.SubstitutionFactories;
import io.xmlingest.core.split.RecordElements;
import jakarta.xml.bind.JAXBContext;
import jakarta.xml.bind.JAXBException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import javax.xml.namespace.QName;
import javax.xml.validation.Schema;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a configuration says records are: for each record element, the class it binds to (or
 * none, schema-less), its key and its topic; one JAXB context for all the classes; and the
 * schema records are validated against. Built once: it is the expensive part of start-up, and
 * building it first lets a command fail on a wrong setting before it starts anything else.
 */
public final class RecordModel {

    private static final Logger LOG = LoggerFactory.getLogger(RecordModel.class);

    /**
     * One kind of record in a file.
     *
     * @param type    the JAXB class, or null when the record is converted schema-less
     * @param keyName the key's local name, or null when the key is &lt;file id&gt;:&lt;record index&gt;
     * @param keys    reads the key from a bound object; null when schema-less or keyed by position
     */
    public record RecordType(QName element, Class<?> type, String keyName, RecordKeys keys, String topic) {
        public boolean schemaless() {
            return type == null;
        }
    }

    private final List<RecordType> types;
    private final RecordElements elements;
    private final JAXBContext context;
    private final Schema schema;

    private RecordModel(List<RecordType> types, JAXBContext context, Schema schema) {
        this.types = List.copyOf(types);
        this.elements = RecordElements.of(types.stream().map(RecordType::element).toList());
        this.context = context;
        this.schema = schema;
    }

    /**
     * Checks what {@link #of} checks of the record settings without building the model (no JAXB
     * context): record.class, record.key and, when set, topic against record.element,
     * that each record.class loads and is a JAXB class and the one the model declares its element with,
     * that record.schema compiles and declares the elements, that each topic has one use, and
     * commit.interval.ms against the transaction timeout. For commands that only show the settings.
     */
    public static void check(IngestConfig config) {
        int n = config.get(IngestSettings.RECORD_ELEMENT).size();
        List<String> keyNames = aligned(config, IngestSettings.RECORD_KEY, n, "-");
        if (config.find(IngestSettings.TOPIC).isPresent()) {
            aligned(config, IngestSettings.TOPIC, n, null);
            TopicNames.of(config);
        }
        TransactionalIngestion.checkTimes(config);
        List<Class<?>> loaded = load(config, aligned(config, IngestSettings.RECORD_CLASS, n, IngestSettings.SCHEMALESS));
        requireDeclaredAlike(config.get(IngestSettings.RECORD_ELEMENT), loaded);
        for (int i = 0; i < n; i++) {
            if (loaded.get(i) != null && !"-".equals(keyNames.get(i))) {
                RecordKeys.of(loaded.get(i), keyNames.get(i)); // a key the class lacks, as building the model says
            }
        }
        schema(config, loaded);
    }

    /** The compiled record.schema, null when none is set; checked against the classes and elements. */
    private static Schema schema(IngestConfig config, List<Class<?>> loaded) {
        Schema schema = RecordSchemas.compile(config.get(IngestSettings.RECORD_SCHEMA));
        if (schema != null && loaded.contains(null)) {
            throw new ConfigException(IngestSettings.RECORD_SCHEMA.key(), IngestSettings.RECORD_SCHEMA.key()
                    + " validates records as JAXB binds them, and a record.class entry is " + IngestSettings.SCHEMALESS
                    + " (schema-less); give every record element a class, or leave record.schema empty");
        }
        if (schema != null) {
            config.get(IngestSettings.RECORD_ELEMENT).forEach(e -> RecordSchemas.requireDeclared(schema, e));
        }
        return schema;
    }

    /**
     * Each record element's class against the class the model itself declares the element with,
     * where it declares one. Bound to another class, every record is rejected, for content that
     * class has no place for, and the rejections named record.unmapped.content, not the setting at fault.
     */
    private static void requireDeclaredAlike(List<QName> elements, List<Class<?>> classes) {
        for (int i = 0; i < elements.size(); i++) {
            Class<?> type = classes.get(i);
            if (type == null) {
                continue;
            }
            Set<Class<?>> declared = ObjectFactories.classesDeclaredFor(elements.get(i), type);
            if (!declared.isEmpty() && declared.stream().noneMatch(d -> d.isAssignableFrom(type) || type.isAssignableFrom(d))) {
                String key = IngestSettings.RECORD_CLASS.key();
                throw new ConfigException(key, IngestSettings.RECORD_ELEMENT.key() + " " + elements.get(i)
                        + " is declared in the model with " + declared.stream().map(Class::getName).toList()
                        + ", but " + key + " binds it to " + type.getName() + ", which no record of it would fit"
                        + (elements.size() > 1 ? ": give each record element its class, in the same order" : ""));
            }
            if (!declared.isEmpty() && !declared.contains(type) && java.lang.reflect.Modifier.isAbstract(type.getModifiers())) {
                // A record names its type with xsi:type only where the schema makes the element's own type abstract;
                // bound to an abstract base of a concrete element, every record was rejected as needing one.
                String key = IngestSettings.RECORD_CLASS.key();
                throw new ConfigException(key, key + " " + type.getName() + " is abstract, and the model declares "
                        + IngestSettings.RECORD_ELEMENT.key() + " " + elements.get(i) + " with "
                        + declared.stream().map(Class::getName).toList() + ": JAXB cannot make an abstract class, so "
                        + "every record would be rejected; set " + key + " to the element's own class"
                        + (elements.size() > 1 ? ", in the order of " + IngestSettings.RECORD_ELEMENT.key() : ""));
            }
        }
    }

    /** The named classes, loaded from model.path or the class path; null for a schema-less entry. */
    private static List<Class<?>> load(IngestConfig config, List<String> classes) {
        ModelClasses model = ModelClasses.of(config.get(IngestSettings.MODEL_PATH));
        List<Class<?>> loaded = new ArrayList<>();
        for (String name : classes) {
            loaded.add(IngestSettings.SCHEMALESS.equals(name) ? null : model.load(name));
        }
        return loaded;
    }

    /** Builds the model the settings name; every error names the setting to fix. */
    public static RecordModel of(IngestConfig config) {
        List<QName> elements = config.get(IngestSettings.RECORD_ELEMENT);
        int n = elements.size();
        List<String> classes = aligned(config, IngestSettings.RECORD_CLASS, n, IngestSettings.SCHEMALESS);
        List<String> keyNames = aligned(config, IngestSettings.RECORD_KEY, n, "-");
        List<String> topics = aligned(config, IngestSettings.TOPIC, n, null);
        List<Class<?>> loaded = load(config, classes);
        requireDeclaredAlike(elements, loaded);
        List<Class<?>> bound = loaded.stream().filter(c -> c != null).distinct().toList();
        JAXBContext context = bound.isEmpty() ? null : context(bound);
        if (context != null) {
            FieldBoundModel.check(context);
        }
        Schema schema = schema(config, loaded);
        List<RecordType> types = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            String keyName = "-".equals(keyNames.get(i)) ? null : keyNames.get(i);
            Class<?> type = loaded.get(i);
            RecordKeys keys = type == null || keyName == null ? null : RecordKeys.of(type, keyName);
            types.add(new RecordType(elements.get(i), type, keyName, keys, topics.get(i)));
        }
        return new RecordModel(types, context, schema);
    }

    /**
     * This model with the topics {@code config} names. A model is built once and is expensive (the
     * JAXB context); the topics are cheap and belong to the configuration a pipeline is made with,
     * which may not be the one the model was first built from.
     */
    public RecordModel withTopicsOf(IngestConfig config) {
        List<String> topics = aligned(config, IngestSettings.TOPIC, types.size(), null);
        List<RecordType> retargeted = new ArrayList<>();
        for (int i = 0; i < types.size(); i++) {
            RecordType t = types.get(i);
            retargeted.add(new RecordType(t.element(), t.type(), t.keyName(), t.keys(), topics.get(i)));
        }
        return retargeted.equals(types) ? this : new RecordModel(retargeted, context, schema);
    }

    /**
     * A list setting read against the record elements: one entry per element, or one for all.
     * An empty list means {@code empty} for all, when the setting allows that.
     */
    private static List<String> aligned(IngestConfig config, Setting<List<String>> setting, int n, String empty) {
        List<String> values = config.get(setting);
        if (values.isEmpty() && empty != null) {
            values = List.of(empty);
        }
        if (values.size() == n) {
            return values;
        }
        if (values.size() == 1) {
            return java.util.Collections.nCopies(n, values.get(0));
        }
        throw new ConfigException(setting.key(), setting.key() + " has " + values.size() + " entries and "
                + IngestSettings.RECORD_ELEMENT.key() + " " + n + ": give one entry per record element, in the same "
                + "order, or one for all");
    }

    /**
     * One context for the record classes and the factories beside them that declare members of
     * substitution groups the records can hold or elements of another namespace they refer to (see
     * {@link SubstitutionFactories}: JAXB would not find those of another namespace's package). A factory that cannot be bound together with
     * the rest (a class of it JAXB refuses, say) is left out, with a warning naming it and JAXB's
     * complaint: records holding its members are then rejected as having an unexpected element,
     * as they were before such factories were looked for, and the others still bind.
     */
    private static JAXBContext context(List<Class<?>> classes) {
        List<Class<?>> factories = SubstitutionFactories.forContext(classes).stream()
                .filter(f -> !classes.contains(f)).toList();
        if (!factories.isEmpty()) {
            try {
                return newContext(classes, factories);
            } catch (JAXBException | RuntimeException all) {
                JAXBContext context = leavingOutRefused(classes, factories);
                if (context != null) {
                    return context;
                }
            }
        }
        try {
            return JAXBContext.newInstance(classes.toArray(Class<?>[]::new));
        } catch (JAXBException e) {
            throw new ConfigException(IngestSettings.RECORD_CLASS.key(),
                    "record class " + classes.stream().map(Class::getName).toList() + " is not a JAXB class: " + e);
        }
    }

    /**
     * The context of the classes and every factory JAXB takes with them, found one factory at a time
     * (rare, and each build takes a fraction of a second); null when it takes none.
     */
    private static JAXBContext leavingOutRefused(List<Class<?>> classes, List<Class<?>> factories) {
        List<Class<?>> kept = new ArrayList<>();
        JAXBContext context = null;
        for (Class<?> factory : factories) {
            List<Class<?>> with = new ArrayList<>(kept);
            with.add(factory);
            try {
                context = newContext(classes, with);
                kept.add(factory);
            } catch (JAXBException | RuntimeException e) {
                LOG.warn("object factory {} declares elements the records can hold but cannot be bound together with "
                        + "record class {} ({}); a record holding an element it declares will be rejected as "
                        + "unexpected, or the class refused if it refers to one (fix or remove it on {}, or compile the "
                        + "model into one package: model "
                        + "compile --package NAME)", factory.getName(), classes.stream().map(Class::getName).toList(),
                        summary(e), IngestSettings.MODEL_PATH.key());
            }
        }
        return context;
    }

    private static JAXBContext newContext(List<Class<?>> classes, List<Class<?>> factories) throws JAXBException {
        List<Class<?>> all = new ArrayList<>(classes);
        all.addAll(factories);
        return JAXBContext.newInstance(all.toArray(Class<?>[]::new));
    }

    /** JAXB's first line only counts its complaints; the next unindented one is the first of them. */
    private static String summary(Exception e) {
        List<String> lines = String.valueOf(e).lines().filter(l -> !l.isBlank() && !Character.isWhitespace(l.charAt(0)))
                .limit(2).toList();
        return String.join(": ", lines);
    }

    public List<RecordType> types() {
        return types;
    }

    public RecordElements elements() {
        return elements;
    }

    /** The JAXB context of every bound class; null when every type is schema-less. */
    public JAXBContext context() {
        return context;
    }

    /** The schema records are validated against, or null. */
    public Schema schema() {
        return schema;
    }

    /** Every record topic, each once, in the order of the record elements. */
    public List<String> topics() {
        return List.copyOf(new LinkedHashSet<>(types.stream().map(RecordType::topic).toList()));
    }
}
