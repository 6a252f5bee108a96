package io.xmlingest.app.worker;

/**
 * A work order this worker cannot carry out now, though Kafka is fine: its file cannot be read
 * here (a mount away, a URI no file system here resolves), or ingesting it failed in a way that is
 * not the file's fault. The order stays where it is in the work topic and is taken up again, here
 * or by whichever worker Kafka gives its partition to; nothing is lost and the file is not failed.
 */
final class WorkOrderBlockedException extends RuntimeException {
    WorkOrderBlockedException(String message, Throwable cause) {
        super(message, cause);
    }
}
