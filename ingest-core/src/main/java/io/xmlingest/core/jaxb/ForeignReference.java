package io.xmlingest.core.jaxb;

/**
 * What an xs:IDREF binds to when the xs:ID it names is not in its record: each record is bound on
 * its own, so a reference to an item of another record (an order naming its customer) has no
 * object to point to. It is written as the ID, as a reference within the record is.
 *
 * @param id the ID as the file wrote it
 */
public record ForeignReference(String id) {
}
