package io.xmlingest.datagen;

import io.xmlingest.sample.persons.Address;
import io.xmlingest.sample.persons.Person;
import io.xmlingest.sample.persons.Phone;
import io.xmlingest.sample.persons.PhoneType;
import java.math.BigDecimal;
import java.text.Normalizer;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import javax.xml.datatype.DatatypeConfigurationException;
import javax.xml.datatype.DatatypeConstants;
import javax.xml.datatype.DatatypeFactory;
import java.lang.annotation.Annotation;
import java.lang.reflect.Method;
import java.util.Collection;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import uk.co.jemos.podam.api.ClassAttributeApprover;
import uk.co.jemos.podam.api.ClassInfo;
import uk.co.jemos.podam.api.ClassInfoStrategy;
import uk.co.jemos.podam.api.DefaultClassInfoStrategy;
import uk.co.jemos.podam.api.PodamFactory;
import uk.co.jemos.podam.api.PodamFactoryImpl;
import uk.co.jemos.podam.api.RandomDataProviderStrategyImpl;
import uk.co.jemos.podam.common.AttributeStrategy;

/**
 * Makes realistic persons with PODAM. Every value comes from one seeded {@link Random}, through a
 * value strategy per attribute, so the same seed gives the same persons, and every value is valid
 * against persons.xsd (PODAM's own random strings would not match its patterns).
 */
public final class PersonFactory {

    private static final List<String> FIRST_NAMES = List.of("Anna", "Ben", "Chloé", "David", "Elif", "Farid", "Greta",
            "Hugo", "Ingrid", "José", "Kai", "Lena", "Łukasz", "Maya", "Noah", "Olga", "Pierre", "Quinn", "Rosa",
            "Sven", "Tomás", "Uma", "Viktor", "Wen", "Yusuf", "Zoë");
    private static final List<String> LAST_NAMES = List.of("Andersen", "Becker", "Costa", "Dubois", "Eriksson",
            "Fischer", "García", "Hansen", "Ivanova", "Jansen", "Kowalski", "López", "Müller", "Nowak", "O'Brien",
            "Petrov", "Rossi", "Schmidt", "Tanaka", "Ünal", "Varga", "Weber", "Yilmaz", "Zhang");
    private static final List<String> STREETS = List.of("Main Street", "Oak Avenue", "Station Road", "Rue de la Paix",
            "Hauptstraße", "Calle Mayor", "Mill Lane", "Harbour View", "Church Street", "Park Road");
    private static final List<String> CITIES = List.of("Amsterdam", "Berlin", "Dublin", "Kraków", "Lisbon", "Lyon",
            "Madrid", "Oslo", "Rome", "Tallinn", "Vienna", "Zürich");
    private static final List<String> COUNTRIES = List.of("NL", "DE", "IE", "PL", "PT", "FR", "ES", "NO", "IT", "EE",
            "AT", "CH");
    private static final List<String> DOMAINS = List.of("example.com", "example.org", "mail.example.net",
            "corp.example.eu");

    private final Random random;
    private final PodamFactory podam;
    private final DatatypeFactory dates;

    public PersonFactory(long seed) {
        this.random = new Random(seed);
        try {
            this.dates = DatatypeFactory.newInstance();
        } catch (DatatypeConfigurationException e) {
            throw new IllegalStateException(e);
        }
        RandomDataProviderStrategyImpl strategy = new RandomDataProviderStrategyImpl();
        strategy.setDefaultNumberOfCollectionElements(0);
        strategy.addOrReplaceAttributeStrategy(Person.class, "firstName", value(() -> pick(FIRST_NAMES)));
        strategy.addOrReplaceAttributeStrategy(Person.class, "lastName", value(() -> pick(LAST_NAMES)));
        strategy.addOrReplaceAttributeStrategy(Person.class, "email", value(() -> "pending@example.com"));
        strategy.addOrReplaceAttributeStrategy(Person.class, "birthDate", value(() -> dates.newXMLGregorianCalendarDate(
                1940 + random.nextInt(66), 1 + random.nextInt(12), 1 + random.nextInt(28), DatatypeConstants.FIELD_UNDEFINED)));
        strategy.addOrReplaceAttributeStrategy(Person.class, "active", value(() -> random.nextInt(10) < 8));
        strategy.addOrReplaceAttributeStrategy(Person.class, "salary",
                value(() -> BigDecimal.valueOf(1_500_000L + random.nextInt(20_000_000), 2)));
        strategy.addOrReplaceAttributeStrategy(Person.class, "id", value(() -> 0L));
        strategy.addOrReplaceAttributeStrategy(Phone.class, "value",
                value(() -> "+" + (30 + random.nextInt(60)) + String.format(Locale.ROOT, "%09d", random.nextInt(1_000_000_000))));
        strategy.addOrReplaceAttributeStrategy(Phone.class, "type", value(() -> pick(List.of(PhoneType.values()))));
        strategy.addOrReplaceAttributeStrategy(Address.class, "street",
                value(() -> (1 + random.nextInt(250)) + " " + pick(STREETS)));
        strategy.addOrReplaceAttributeStrategy(Address.class, "city", value(() -> pick(CITIES)));
        strategy.addOrReplaceAttributeStrategy(Address.class, "postalCode",
                value(() -> String.format(Locale.ROOT, "%05d", random.nextInt(100_000))));
        strategy.addOrReplaceAttributeStrategy(Address.class, "country", value(() -> pick(COUNTRIES)));
        this.podam = new PodamFactoryImpl(strategy);
        this.podam.setClassStrategy(new CachedClassInfo(DefaultClassInfoStrategy.getInstance()));
    }

    /**
     * PODAM introspects a class afresh on every call, which made it most of datagen's cost; the
     * generated classes never change while we run, so their description is computed once.
     */
    private static final class CachedClassInfo implements ClassInfoStrategy {
        private final ClassInfoStrategy delegate;
        private final Map<Class<?>, ClassInfo> infos = new ConcurrentHashMap<>();

        CachedClassInfo(ClassInfoStrategy delegate) {
            this.delegate = delegate;
        }

        @Override
        public Set<Class<? extends Annotation>> getExcludedAnnotations() {
            return delegate.getExcludedAnnotations();
        }

        @Override
        public Set<String> getExcludedFields(Class<?> type) {
            return delegate.getExcludedFields(type);
        }

        @Override
        public ClassInfo getClassInfo(Class<?> type) {
            return infos.computeIfAbsent(type, delegate::getClassInfo);
        }

        @Override
        public ClassAttributeApprover getClassAttributeApprover(Class<?> type) {
            return delegate.getClassAttributeApprover(type);
        }

        @Override
        public Collection<Method> getExtraMethods(Class<?> type) {
            return delegate.getExtraMethods(type);
        }
    }

    /** The next person, with the given id; ids are the caller's, so they are unique by construction. */
    public Person next(long id) {
        Person p = podam.manufacturePojo(Person.class);
        p.setId(id);
        p.setEmail(emailOf(p.getFirstName(), p.getLastName(), id));
        int phones = 1 + random.nextInt(3);
        for (int i = 0; i < phones; i++) {
            p.getPhone().add(podam.manufacturePojo(Phone.class));
        }
        return p;
    }

    private String emailOf(String first, String last, long id) {
        return ascii(first) + "." + ascii(last) + id + "@" + pick(DOMAINS);
    }

    private static String ascii(String name) {
        String plain = Normalizer.normalize(name.replace("Ł", "L").replace("ł", "l"), Normalizer.Form.NFD);
        return plain.replaceAll("[^A-Za-z]", "").toLowerCase(Locale.ROOT);
    }

    private <T> T pick(List<T> values) {
        return values.get(random.nextInt(values.size()));
    }

    private static <T> AttributeStrategy<T> value(java.util.function.Supplier<T> supplier) {
        return (type, annotations) -> supplier.get();
    }
}
