package io.xmlingest.bench.formats;

import io.xmlingest.core.encode.JsonRecordEncoder;

/** Today's value: xmlingest's JSON, written straight from the bound record. */
public final class JsonValueFormat implements ValueFormat {

    private final JsonRecordEncoder encoder = new JsonRecordEncoder();

    @Override
    public String name() {
        return "json";
    }

    @Override
    public byte[] encode(Source record) {
        return encoder.encode(record.bound());
    }
}
