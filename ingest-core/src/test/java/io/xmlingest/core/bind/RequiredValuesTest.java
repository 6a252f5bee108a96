package io.xmlingest.core.bind;

import static org.assertj.core.api.Assertions.assertThat;

import io.xmlingest.core.jaxb.XjcStyleOrder;
import jakarta.xml.bind.JAXBContext;
import java.io.StringReader;
import org.junit.jupiter.api.Test;

class RequiredValuesTest {

    static Object bind(String xml) throws Exception {
        JAXBContext context = JAXBContext.newInstance(XjcStyleOrder.class, XjcStyleOrder.ObjectFactory.class);
        return context.createUnmarshaller().unmarshal(new StringReader(xml));
    }

    @Test
    void aNilRequiredNillableElementIsNotMissing() throws Exception {
        Object order = bind("<order id='A' xmlns:xsi='http://www.w3.org/2001/XMLSchema-instance'>"
                + "<placed>2026-11-22T09:15:00Z</placed><status>placed</status><total xsi:nil='true'/></order>");

        assertThat(RequiredValues.firstMissing(order)).isNull();
    }

    @Test
    void aRequiredValueInsideAJaxbElementIsChecked() throws Exception {
        Object order = bind("<order id='A'><placed>2026-11-22T09:15:00Z</placed><status>placed</status><total>1</total>"
                + "<shipTo/></order>");

        assertThat(RequiredValues.firstMissing(order)).isEqualTo("shipTo/city");
    }

    @Test
    void aRequiredValueInsideARepeatedNestedClassIsChecked() throws Exception {
        Object order = bind("<order id='A'><placed>2026-11-22T09:15:00Z</placed><status>placed</status><total>1</total>"
                + "<line sku='L1'><quantity>1</quantity></line></order>");

        assertThat(RequiredValues.firstMissing(order)).isEqualTo("line/price");
    }
}
