package io.xmlingest.bench.formats;

/**
 * The record's own bytes, exactly as the splitter finds them in the file. Encoding is free; the
 * price is paid by every consumer, which must parse XML (and know the file's namespaces, which a
 * fragment that relies on a declaration outside the record does not carry).
 */
public final class XmlFragmentValueFormat implements ValueFormat {

    @Override
    public String name() {
        return "xml";
    }

    @Override
    public byte[] encode(Source record) {
        return record.xml();
    }
}
