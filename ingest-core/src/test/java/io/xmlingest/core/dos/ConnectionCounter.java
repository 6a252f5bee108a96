package io.xmlingest.core.dos;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.util.concurrent.atomic.AtomicInteger;

/** A loopback port that counts every connection made to it: proof that a document's URL was never fetched. */
final class ConnectionCounter implements AutoCloseable {

    private final ServerSocket listener;
    private final AtomicInteger connections = new AtomicInteger();
    private final Thread acceptor;

    ConnectionCounter() throws IOException {
        listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        listener.setSoTimeout(100);
        acceptor = new Thread(() -> {
            while (!listener.isClosed()) {
                try (Socket s = listener.accept()) {
                    connections.incrementAndGet();
                } catch (SocketTimeoutException e) {
                    // poll again
                } catch (IOException e) {
                    return;
                }
            }
        }, "connection-counter");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    String url() {
        return "http://127.0.0.1:" + listener.getLocalPort() + "/evil";
    }

    /** Connections so far, after a moment for any late one to arrive. */
    int connections() throws InterruptedException {
        Thread.sleep(300);
        return connections.get();
    }

    @Override
    public void close() throws Exception {
        listener.close();
        acceptor.join(1000);
    }
}
