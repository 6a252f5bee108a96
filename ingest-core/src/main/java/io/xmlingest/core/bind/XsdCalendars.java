package io.xmlingest.core.bind;

import static io.xmlingest.core.bind.XsdText.invalid;
import static io.xmlingest.core.bind.XsdText.shortValue;

import io.xmlingest.core.jaxb.XmlValues;
import java.util.regex.Pattern;
import javax.xml.datatype.DatatypeFactory;
import javax.xml.datatype.Duration;
import javax.xml.datatype.XMLGregorianCalendar;

/**
 * Strict parsers for XML Schema's dates, times and durations. JAXB reads every date and time with
 * {@link DatatypeFactory#newXMLGregorianCalendar(String)}, which takes any of the eight forms:
 * an xs:date field would hold "1959-06-11T10:20:30" or "--06-11" and publish it as written. Here
 * each type accepts its own form only; the factory then checks the values (no February 30th).
 */
public final class XsdCalendars {
    private XsdCalendars() {
    }

    // XML Schema 1.0: a year of four or more digits, not 0000 (the factory refuses it), no leading zero beyond four.
    private static final String YEAR = "-?([1-9][0-9]{3,}|0[0-9]{3})";
    private static final String MONTH = "(0[1-9]|1[0-2])";
    private static final String DAY = "(0[1-9]|[12][0-9]|3[01])";
    private static final String TIME = "(([01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9](\\.[0-9]+)?|24:00:00(\\.0+)?)";
    private static final String ZONE = "(Z|[+-]((0[0-9]|1[0-3]):[0-5][0-9]|14:00))?";

    private record Form(String type, Pattern pattern, String rule) {
        Form(String type, String regex, String rule) {
            this(type, Pattern.compile(regex + ZONE), rule + ", an optional time zone (Z or +hh:mm)");
        }
    }

    private static final Form DATE = new Form("date", YEAR + "-" + MONTH + "-" + DAY, "YYYY-MM-DD");
    private static final Form DATE_TIME = new Form("dateTime", YEAR + "-" + MONTH + "-" + DAY + "T" + TIME,
            "YYYY-MM-DDThh:mm:ss with optional fractional seconds");
    private static final Form TIME_OF_DAY = new Form("time", TIME, "hh:mm:ss with optional fractional seconds");
    private static final Form G_YEAR = new Form("gYear", YEAR, "YYYY");
    private static final Form G_YEAR_MONTH = new Form("gYearMonth", YEAR + "-" + MONTH, "YYYY-MM");
    private static final Form G_MONTH = new Form("gMonth", "--" + MONTH, "--MM");
    private static final Form G_MONTH_DAY = new Form("gMonthDay", "--" + MONTH + "-" + DAY, "--MM-DD");
    private static final Form G_DAY = new Form("gDay", "---" + DAY, "---DD");

    // The factory JAXB itself uses, so a valid value binds to the same calendar as before.
    private static final DatatypeFactory FACTORY = XmlValues.datatypeFactory();

    public static XMLGregorianCalendar parseDate(String text) {
        return parse(text, DATE);
    }

    public static XMLGregorianCalendar parseDateTime(String text) {
        return parse(text, DATE_TIME);
    }

    public static XMLGregorianCalendar parseTime(String text) {
        return parse(text, TIME_OF_DAY);
    }

    public static XMLGregorianCalendar parseGYear(String text) {
        return parse(text, G_YEAR);
    }

    public static XMLGregorianCalendar parseGYearMonth(String text) {
        return parse(text, G_YEAR_MONTH);
    }

    public static XMLGregorianCalendar parseGMonth(String text) {
        return parse(text, G_MONTH);
    }

    public static XMLGregorianCalendar parseGMonthDay(String text) {
        return parse(text, G_MONTH_DAY);
    }

    public static XMLGregorianCalendar parseGDay(String text) {
        return parse(text, G_DAY);
    }

    public static String print(XMLGregorianCalendar value) {
        return value == null ? null : value.toXMLFormat();
    }

    // XML Schema 1.0: the parts in this order, at least one; a T only before an hour, minute or second part;
    // digits on both sides of a seconds' decimal point. ASCII digits only ([0-9], not \d's Unicode classes).
    private static final Pattern DURATION = Pattern.compile(
            "-?P(?=[0-9]|T[0-9])([0-9]+Y)?([0-9]+M)?([0-9]+D)?(T(?=[0-9])([0-9]+H)?([0-9]+M)?([0-9]+(\\.[0-9]+)?S)?)?");
    private static final String DURATION_RULE = "PnYnMnDTnHnMnS with an optional leading '-', at least one part, "
            + "T only before an hour, minute or second part, fractional seconds as n.n";

    /**
     * JAXB's own reading ({@link DatatypeFactory#newDuration(String)}) does not trim, so " PT1M " was
     * refused, yet takes "PT1.S" and ".5S"; its errors are the bare value or a NumberFormatException's
     * text. The factory is only handed text this pattern has passed, so its value is the text's.
     */
    public static Duration parseDuration(String text) {
        String t = shortValue(text, "duration");
        if (!DURATION.matcher(t).matches()) {
            throw invalid(text, "duration", DURATION_RULE);
        }
        return FACTORY.newDuration(t);
    }

    /** The lexical form as JAXB prints it (leading zeros dropped, as for integers); the JSON encoder writes the same. */
    public static String printDuration(Duration value) {
        return value == null ? null : value.toString();
    }

    private static XMLGregorianCalendar parse(String text, Form form) {
        String t = shortValue(text, form.type());
        if (!form.pattern().matcher(t).matches()) {
            throw invalid(text, form.type(), form.rule());
        }
        try {
            return FACTORY.newXMLGregorianCalendar(t);
        } catch (IllegalArgumentException e) {
            throw invalid(text, form.type(), "no such " + (form == TIME_OF_DAY ? "time" : "date"));
        }
    }
}
