package io.xmlingest.core.bind.adapted;

import java.math.BigDecimal;

/** A value class of the application's own, which JAXB reaches only through {@link MoneyAdapter}. */
public record Money(BigDecimal amount, String currency) {
}
