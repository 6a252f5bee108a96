package io.xmlingest.core.bind.adapted;

import jakarta.xml.bind.annotation.adapters.XmlAdapter;

public class MoneyAdapter extends XmlAdapter<MoneyXml, Money> {
    @Override
    public Money unmarshal(MoneyXml xml) {
        return new Money(xml.amount, xml.currency);
    }

    @Override
    public MoneyXml marshal(Money money) {
        MoneyXml xml = new MoneyXml();
        xml.amount = money.amount();
        xml.currency = money.currency();
        return xml;
    }
}
