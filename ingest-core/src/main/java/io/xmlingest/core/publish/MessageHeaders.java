package io.xmlingest.core.publish;

import java.util.LinkedHashMap;
import java.util.Map;

/** Names of the headers on every record message; published, so they do not change. */
public final class MessageHeaders {
    private MessageHeaders() {
    }

    /** The source file's name as given to xmlingest. */
    public static final String FILE = "xmlingest.file";
    /** The source file's identity: SHA-256 of its bytes, lower-case hex. */
    public static final String FILE_ID = "xmlingest.file.id";
    /** 0-based index of the record within its file, decimal. */
    public static final String RECORD_INDEX = "xmlingest.record.index";
    /** 0-based page number within the file, decimal. */
    public static final String PAGE = "xmlingest.page";
    /** On checkpoints only: the worker that committed it (a worker deletes only its own inbox's old files). */
    public static final String WORKER = "xmlingest.worker";

    /** The file's two headers, in the documented order, for a caller to add its own after them. */
    public static Map<String, String> ofFile(String file, String fileId) {
        Map<String, String> headers = new LinkedHashMap<>();
        headers.put(FILE, file);
        headers.put(FILE_ID, fileId);
        return headers;
    }
}
