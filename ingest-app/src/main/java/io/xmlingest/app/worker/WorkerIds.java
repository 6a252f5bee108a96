package io.xmlingest.app.worker;

import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * A worker's default identity: stable across restarts on one host and inbox, because a
 * restarted worker must present the same transactional id to fence its dead predecessor and
 * abort what it left open, and must find its claimed files in {@code processing/<id>/}.
 */
public final class WorkerIds {
    private WorkerIds() {
    }

    public static String resolve(String configured, Path inbox) {
        if (!configured.isBlank()) {
            return configured;
        }
        return sanitize(hostName()) + "-" + shortHash(inbox.toAbsolutePath().normalize().toString());
    }

    private static String hostName() {
        String env = System.getenv("HOSTNAME");
        if (env != null && !env.isBlank()) {
            return env;
        }
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (Exception e) {
            return "localhost";
        }
    }

    private static String sanitize(String s) {
        return s.replaceAll("[^A-Za-z0-9._-]", "_");
    }

    private static String shortHash(String s) {
        try {
            byte[] d = MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(d, 0, 4);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
