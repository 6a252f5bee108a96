package io.xmlingest.core.bind;

import io.xmlingest.core.error.ErrorLocation;
import javax.xml.stream.XMLStreamReader;

/**
 * Turns one record, read from a cursor positioned on its start tag, into a typed object.
 * Implementations are not shared between threads.
 *
 * @param <T> the record type
 */
public interface RecordBinder<T> {

    /**
     * @param record a reader on the record's start tag that ends with the record's end tag
     * @param where  the record's position, for error messages
     * @throws io.xmlingest.core.error.RecordRejectedException the record does not bind; skip it
     * @throws io.xmlingest.core.error.FileFailedException     the XML itself broke off; stop the file
     */
    T bind(XMLStreamReader record, ErrorLocation where);
}
