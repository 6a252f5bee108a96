package io.xmlingest.core.bind;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/** Valid edge values keep their exact value; invalid text is refused with the value and the type named. */
class XsdLexicalTest {

    private static void refused(Function<String, ?> parse, String text, String type) {
        assertThatThrownBy(() -> parse.apply(text)).as(text).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("xs:" + type);
    }

    @Test
    void booleansAreTheFourSpellingsOnly() {
        assertThat(XsdLexical.parseBoolean(" true\n")).isTrue();
        assertThat(XsdLexical.parseBoolean("0")).isFalse();
        for (String s : new String[] {"yes", "tru", "TRUE", "", "\u3000true"}) {
            refused(XsdLexical::parseBoolean, s, "boolean");
        }
        assertThatThrownBy(() -> XsdLexical.parseBoolean("yes")).hasMessage("'yes' is not an xs:boolean (true, false, 1 or 0)");
    }

    @Test
    void boundedIntegersKeepTheirLimitsAndRefuseOneBeyond() {
        assertThat(XsdLexical.parseByte("-128")).isEqualTo((byte) -128);
        assertThat(XsdLexical.parseByte("+127")).isEqualTo((byte) 127);
        assertThat(XsdLexical.parseShort("-32768")).isEqualTo((short) -32768);
        assertThat(XsdLexical.parseInt("\t2147483647 ")).isEqualTo(Integer.MAX_VALUE);
        assertThat(XsdLexical.parseInt("-0")).isZero();
        assertThat(XsdLexical.parseInt("000000000000000000000000042")).isEqualTo(42);
        assertThat(XsdLexical.parseLong("-9223372036854775808")).isEqualTo(Long.MIN_VALUE);
        assertThat(XsdLexical.parseLong("9223372036854775807")).isEqualTo(Long.MAX_VALUE);
        assertThat(XsdLexical.parseUnsignedByte("255")).isEqualTo((short) 255);
        assertThat(XsdLexical.parseUnsignedShort("65535")).isEqualTo(65535);
        assertThat(XsdLexical.parseUnsignedInt("4294967295")).isEqualTo(4294967295L);
        assertThat(XsdLexical.parseUnsignedInt("-0")).isZero();

        refused(XsdLexical::parseByte, "128", "byte");
        refused(XsdLexical::parseByte, "300", "byte");
        refused(XsdLexical::parseShort, "70000", "short");
        refused(XsdLexical::parseInt, "99999999999", "int");
        refused(XsdLexical::parseInt, "2147483648", "int");
        refused(XsdLexical::parseLong, "9223372036854775808", "long");
        refused(XsdLexical::parseLong, "-9223372036854775809", "long");
        refused(XsdLexical::parseUnsignedByte, "256", "unsignedByte");
        refused(XsdLexical::parseUnsignedShort, "65536", "unsignedShort");
        refused(XsdLexical::parseUnsignedInt, "-1", "unsignedInt");
        refused(XsdLexical::parseUnsignedInt, "4294967296", "unsignedInt");
    }

    @Test
    void integersAreAsciiDigitsWithOneOptionalSign() {
        for (String s : new String[] {"", "+", "-", "1 2", "1-2", "+-5", "--5", "\uFF17", "\u0667", "1.0", "1e3", "0x10",
                "\u30007", "7\u00A0", "1_000", "\u202F1"}) {
            refused(XsdLexical::parseInt, s, "int");
            refused(XsdLexical::parseLong, s, "long");
            refused(XsdLexical::parseInteger, s, "integer");
        }
    }

    @Test
    void unboundedIntegersKeepEveryDigitAndTheirSignRules() {
        String big = "-123456789012345678901234567890";
        assertThat(XsdLexical.parseInteger(big)).isEqualTo(new BigInteger(big));
        assertThat(XsdLexical.parseUnsignedLong("18446744073709551615")).isEqualTo(new BigInteger("18446744073709551615"));
        assertThat(XsdLexical.parseNonNegativeInteger("0")).isZero();
        assertThat(XsdLexical.parsePositiveInteger("+007")).isEqualTo(7);
        assertThat(XsdLexical.parseNonPositiveInteger("-0")).isZero();
        assertThat(XsdLexical.parseNegativeInteger("-1")).isEqualTo(-1);

        refused(XsdLexical::parseUnsignedLong, "18446744073709551616", "unsignedLong");
        refused(XsdLexical::parseNonNegativeInteger, "-1", "nonNegativeInteger");
        refused(XsdLexical::parsePositiveInteger, "0", "positiveInteger");
        refused(XsdLexical::parseNonPositiveInteger, "1", "nonPositiveInteger");
        refused(XsdLexical::parseNegativeInteger, "0", "negativeInteger");
        assertThatThrownBy(() -> XsdLexical.parseInteger("1".repeat(1001))).hasMessageContaining("longer than 1000");
    }

    @Test
    void decimalsHaveNoExponent() {
        assertThat(XsdLexical.parseDecimal(" +.50 ")).isEqualByComparingTo("0.50");
        assertThat(XsdLexical.parseDecimal("-1234.500").toPlainString()).isEqualTo("-1234.500");
        assertThat(XsdLexical.parseDecimal("7.")).isEqualByComparingTo("7");
        for (String s : new String[] {"1E5", "1e-3", ".", "+-1", "\uFF11.5", "1,5", "NaN", "INF"}) {
            refused(XsdLexical::parseDecimal, s, "decimal");
        }
    }

    @Test
    void floatingPointTakesXmlSchemaSpellingsOnly() {
        assertThat(XsdLexical.parseDouble("-INF")).isEqualTo(Double.NEGATIVE_INFINITY);
        assertThat(XsdLexical.parseDouble("INF")).isEqualTo(Double.POSITIVE_INFINITY);
        assertThat(XsdLexical.parseDouble("NaN")).isNaN();
        assertThat(XsdLexical.parseDouble("1.5E3")).isEqualTo(1500.0);
        assertThat(XsdLexical.parseDouble("-0")).isEqualTo(-0.0);
        assertThat(XsdLexical.parseDouble(".5e-2")).isEqualTo(0.005);
        assertThat(XsdLexical.parseDouble("1.7976931348623157E308")).isEqualTo(Double.MAX_VALUE);
        assertThat(XsdLexical.parseDouble("4.9E-324")).isEqualTo(Double.MIN_VALUE);
        assertThat(XsdLexical.parseFloat("3.4028235E38")).isEqualTo(Float.MAX_VALUE);
        assertThat(XsdLexical.parseFloat("0.1")).isEqualTo(0.1f);
        for (String s : new String[] {"Infinity", "inf", "+INF", "nan", "1.0f", "1d", "0x1p3", "1e", "e5", "1.5E3.2",
                "\uFF11", "1 000", ""}) {
            refused(XsdLexical::parseDouble, s, "double");
            refused(XsdLexical::parseFloat, s, "float");
        }
        refused(XsdLexical::parseDouble, "1E309", "double");
        refused(XsdLexical::parseFloat, "3.5E38", "float");
        assertThat(XsdLexical.printDouble(Double.NaN)).isEqualTo("NaN");
        assertThat(XsdLexical.printFloat(Float.NEGATIVE_INFINITY)).isEqualTo("-INF");
        assertThat(XsdLexical.printFloat(0.1f)).isEqualTo("0.1");
    }

    @Test
    void eachCalendarTypeTakesItsOwnFormOnly() {
        assertThat(XsdCalendars.parseDate("1959-06-11").toXMLFormat()).isEqualTo("1959-06-11");
        assertThat(XsdCalendars.parseDate(" 2024-02-29Z\n").toXMLFormat()).isEqualTo("2024-02-29Z");
        assertThat(XsdCalendars.parseDate("-0044-03-15+14:00").toXMLFormat()).isEqualTo("-0044-03-15+14:00");
        assertThat(XsdCalendars.parseDate("12345-01-01").toXMLFormat()).isEqualTo("12345-01-01");
        assertThat(XsdCalendars.parseDateTime("2024-02-29T23:59:59.250-05:30").toXMLFormat())
                .isEqualTo("2024-02-29T23:59:59.250-05:30");
        assertThat(XsdCalendars.parseTime("10:20:30Z").toXMLFormat()).isEqualTo("10:20:30Z");
        assertThat(XsdCalendars.parseGYear("2024").toXMLFormat()).isEqualTo("2024");
        assertThat(XsdCalendars.parseGYearMonth("2024-02").toXMLFormat()).isEqualTo("2024-02");
        assertThat(XsdCalendars.parseGMonth("--06").toXMLFormat()).isEqualTo("--06");
        assertThat(XsdCalendars.parseGMonthDay("--02-29").toXMLFormat()).isEqualTo("--02-29");
        assertThat(XsdCalendars.parseGDay("---31").toXMLFormat()).isEqualTo("---31");

        for (String s : new String[] {"1959-06-11T10:20:30", "--06-11", "1959-06", "1959", "59-06-11", "1959-6-11",
                "1959-06-11 ", "1959-02-30", "2023-02-29", "0000-01-01", "1959-06-11+15:00", "1959-06-11+14:01",
                "\uFF11959-06-11", "1959-06-11\u3000", "yesterday", ""}) {
            if (!s.equals("1959-06-11 ")) {
                refused(XsdCalendars::parseDate, s, "date");
            }
        }
        refused(XsdCalendars::parseDateTime, "2024-02-29", "dateTime");
        refused(XsdCalendars::parseDateTime, "2024-02-29T25:00:00", "dateTime");
        refused(XsdCalendars::parseTime, "10:20", "time");
        refused(XsdCalendars::parseTime, "2024-02-29T10:20:30", "time");
        refused(XsdCalendars::parseGYear, "2024-01", "gYear");
        refused(XsdCalendars::parseGYearMonth, "2024", "gYearMonth");
        refused(XsdCalendars::parseGMonth, "--06--", "gMonth");
        refused(XsdCalendars::parseGMonthDay, "--06", "gMonthDay");
        refused(XsdCalendars::parseGDay, "--31", "gDay");
        assertThatThrownBy(() -> XsdCalendars.parseDate("1959-06-11T10:20:30"))
                .hasMessageStartingWith("'1959-06-11T10:20:30' is not an xs:date (YYYY-MM-DD");
    }

    @Test
    void durationsTakeXmlSchemasFormOnlyAndKeepTheirLexicalForm() {
        for (String s : new String[] {"PT1M", "P1Y2M3DT4H5M6.7S", "-P1D", "PT1.50S", "P0Y", "PT0S", "P1Y2M", "PT36H",
                "P99999999999999999999Y", "PT0.0000001S", "P1DT1S"}) {
            assertThat(XsdCalendars.printDuration(XsdCalendars.parseDuration(s))).as(s).isEqualTo(s);
        }
        // XML Schema collapses a duration's whitespace; JAXB's own parser refused this one.
        assertThat(XsdCalendars.parseDuration(" PT1M\n\t").toString()).isEqualTo("PT1M");
        assertThat(XsdCalendars.parseDuration("PT1M")).isEqualTo(XsdCalendars.parseDuration("PT60S"));

        // JAXB's own parser published "PT1.S" as PT1S and ".5S" as PT0.5S; the others failed with bare messages.
        for (String s : new String[] {"PT1.S", "PT.5S", "P1Y2MT", "P1.5Y", "P", "PT", "-P", "P1YT", "PT1", "P1", "1Y",
                "+P1Y", "P-1Y", "P1D1Y", "PT1S1M", "P1H", "PT1D", "PT1.5M", "P1Y 2M", "p1y", "P\uFF11Y", "P1Y\u3000",
                "PT1,5S", ""}) {
            refused(XsdCalendars::parseDuration, s, "duration");
        }
        assertThatThrownBy(() -> XsdCalendars.parseDuration("P1Y2MT"))
                .hasMessageStartingWith("'P1Y2MT' is not an xs:duration (PnYnMnDTnHnMnS");
        assertThatThrownBy(() -> XsdCalendars.parseDuration("P" + "1".repeat(2000) + "Y"))
                .hasMessageStartingWith("an xs:duration of 2002 characters is longer than 1000");
    }

    @Test
    void binaryIsCheckedCharacterByCharacter() {
        assertThat(XsdBinary.parseBase64Binary("SGVs bG8=")).containsExactly("Hello".getBytes());
        assertThat(XsdBinary.parseBase64Binary("\n SGVs\n  bG8h\n")).containsExactly("Hello!".getBytes());
        assertThat(XsdBinary.parseBase64Binary("QQ==")).containsExactly('A');
        assertThat(XsdBinary.parseBase64Binary("")).isEmpty();
        for (String s : new String[] {"!!!notbase64", "SGVsbG8", "SGVsbG8==", "QR==", "QUJ=", "Q===", "====", "QQ=A",
                "SGVs-G8=", "SGVs\u3000bG8="}) {
            refused(XsdBinary::parseBase64Binary, s, "base64Binary");
        }
        assertThat(XsdBinary.parseHexBinary(" 0fA1 ")).containsExactly(0x0f, 0xa1);
        assertThat(XsdBinary.printHexBinary(new byte[] {0x0f, (byte) 0xa1})).isEqualTo("0FA1");
        for (String s : new String[] {"0fA", "0g", "0f a1", "\uFF10\uFF10"}) {
            refused(XsdBinary::parseHexBinary, s, "hexBinary");
        }
    }

    @Test
    void aLongOrMultiLineValueIsQuotedShortAndOnOneLine() {
        assertThatThrownBy(() -> XsdLexical.parseInt("1\n2")).hasMessageStartingWith("'1\\n2' is not an xs:int");
        String huge = "x".repeat(500);
        assertThatThrownBy(() -> XsdLexical.parseInt(huge)).hasMessageStartingWith("'" + "x".repeat(100) + "'... (500 characters)");
        assertThatThrownBy(() -> XsdLexical.parseDecimal("1".repeat(2000)))
                .hasMessageStartingWith("an xs:decimal of 2000 characters is longer than 1000");
        assertThat(XsdText.collapse(" a \t\n b  c ")).isEqualTo("a b c");
        assertThat(XsdText.collapse("a b")).isEqualTo("a b");
    }

    enum Color {
        @jakarta.xml.bind.annotation.XmlEnumValue("red") RED,
        @jakarta.xml.bind.annotation.XmlEnumValue("dark blue") DARK_BLUE
    }

    @Test
    void anUnknownEnumerationValueIsRefusedAndWhitespaceFollowsTheBaseType() {
        StrictEnumAdapter<Color> string = new StrictEnumAdapter<>(Color.class, StrictEnumAdapter.Whitespace.PRESERVE);
        StrictEnumAdapter<Color> token = new StrictEnumAdapter<>(Color.class, StrictEnumAdapter.Whitespace.COLLAPSE);
        StrictEnumAdapter<Color> normalized = new StrictEnumAdapter<>(Color.class, StrictEnumAdapter.Whitespace.REPLACE);
        assertThat(string.unmarshal("dark blue")).isEqualTo(Color.DARK_BLUE);
        assertThat(token.unmarshal("  dark \t blue\n")).isEqualTo(Color.DARK_BLUE);
        assertThat(normalized.unmarshal("dark\tblue")).isEqualTo(Color.DARK_BLUE);
        assertThat(string.marshal(Color.DARK_BLUE)).isEqualTo("dark blue");
        assertThatThrownBy(() -> string.unmarshal("green")).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("'green' is not a value of the enumeration Color: red, dark blue");
        assertThatThrownBy(() -> string.unmarshal(" red ")).hasMessageContaining("' red '");
        assertThatThrownBy(() -> normalized.unmarshal(" red")).hasMessageContaining("' red'");
        assertThatThrownBy(() -> token.unmarshal("RED")).hasMessageContaining("'RED'");
    }

    @Test
    void decimalsPrintPlain() {
        assertThat(XsdLexical.printDecimal(new BigDecimal("1E+3"))).isEqualTo("1000");
    }
}
