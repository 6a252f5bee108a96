package io.xmlingest.core.bind;

import jakarta.xml.bind.ValidationEvent;
import jakarta.xml.bind.ValidationEventLocator;
import org.glassfish.jaxb.runtime.v2.runtime.Coordinator;

/**
 * Keeps a JAXB coordinator registered on a binder thread for the thread's life.
 *
 * <p>Each unmarshal registers its context in a JAXB thread-local and, when nothing was
 * registered before, removes the entry afterwards, so the next record creates it again: a new
 * weak reference per record and the thread-local map's clean-up after it, about a tenth of a
 * binder thread's samples in a profile of the worker. With this anchor underneath, JAXB only
 * swaps the entry's value. The anchor is never used: an unmarshal always registers its own
 * context on top of it for the duration of the call.
 */
final class CoordinatorAnchor extends Coordinator {

    private static final ThreadLocal<Boolean> ANCHORED = new ThreadLocal<>();

    private CoordinatorAnchor() {
    }

    /** Anchors the calling thread, once. */
    static void anchorCurrentThread() {
        if (ANCHORED.get() == null) {
            new CoordinatorAnchor().pushCoordinator();
            ANCHORED.set(Boolean.TRUE);
        }
    }

    @Override
    protected ValidationEventLocator getLocation() {
        return null;
    }

    @Override
    public boolean handleEvent(ValidationEvent event) {
        return false;
    }
}
