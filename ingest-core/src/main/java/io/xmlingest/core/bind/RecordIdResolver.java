package io.xmlingest.core.bind;

import io.xmlingest.core.jaxb.ForeignReference;
import jakarta.xml.bind.ValidationEventHandler;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import org.glassfish.jaxb.runtime.IDResolver;

/**
 * Resolves a record's xs:IDREFs as JAXB does within the record, and one naming an ID outside it to a
 * {@link ForeignReference}: JAXB's own resolver knew only the record's IDs and refused the record
 * ("Undefined ID"), though a file's records may well refer to each other. A reference whose Java
 * type cannot hold a ForeignReference (a typed one) is still refused.
 */
final class RecordIdResolver extends IDResolver {

    private final Map<String, Object> ids = new HashMap<>();

    @Override
    public void startDocument(ValidationEventHandler eventHandler) {
        ids.clear();
    }

    @Override
    public void bind(String id, Object object) {
        ids.put(id, object);
    }

    @Override
    public Callable<?> resolve(String id, @SuppressWarnings("rawtypes") Class targetType) {
        // JAXB calls it as the reference is read, so an ID later in the record is not known yet and is given
        // as a ForeignReference too: written, a reference is its ID either way.
        return () -> {
            Object target = ids.get(id);
            if (target != null || !targetType.isAssignableFrom(ForeignReference.class)) {
                return target;
            }
            return new ForeignReference(id);
        };
    }
}
