package io.xmlingest.sample.persons;

import io.xmlingest.core.bind.StrictEnumAdapter;

/**
 * Written by hand beside the generated sample model: persons.xjb binds the phone type through
 * these, so that an unknown type rejects the record instead of binding as null.
 */
public final class PersonsEnums {
    private static final StrictEnumAdapter<PhoneType> PHONE_TYPE =
            new StrictEnumAdapter<>(PhoneType.class, StrictEnumAdapter.Whitespace.PRESERVE);

    private PersonsEnums() {
    }

    public static PhoneType parsePhoneType(String text) {
        return PHONE_TYPE.unmarshal(text);
    }

    public static String printPhoneType(PhoneType value) {
        return PHONE_TYPE.marshal(value);
    }
}
