package io.xmlingest.app;

import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.platform.launcher.LauncherSession;
import org.junit.platform.launcher.LauncherSessionListener;

/**
 * Ends every process the tests started that is still running when the test JVM's session closes.
 * A test whose assertion fails between starting a worker or a broker and stopping it would
 * otherwise leave a long-lived JVM behind that outlives the build, holding its ports and
 * directories. Registered through META-INF/services, so it covers every test of the module.
 */
public final class ChildProcessReaper implements LauncherSessionListener {

    @Override
    public void launcherSessionClosed(LauncherSession session) {
        List<ProcessHandle> left = ProcessHandle.current().descendants().filter(ProcessHandle::isAlive).toList();
        for (ProcessHandle p : left) {
            System.err.println("ChildProcessReaper: ending " + p.pid() + " (" + p.info().commandLine().orElse("?")
                    + "), left running by a test");
            p.destroyForcibly();
        }
        for (ProcessHandle p : left) {
            try {
                p.onExit().get(30, TimeUnit.SECONDS);
            } catch (Exception e) {
                System.err.println("ChildProcessReaper: " + p.pid() + " did not end: " + e);
            }
        }
    }
}
