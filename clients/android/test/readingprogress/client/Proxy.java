package readingprogress.client;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A TCP proxy in front of the service, over real sockets, that can lose the service's answers the
 * way a network does: it forwards every request, and an answer it is told to lose it reads from the
 * service (so the service has committed and replied) and then holds, or drops with a reset.
 */
final class Proxy implements AutoCloseable {
    /** What becomes of the service's next answers. */
    enum Mode {
        /** Passed on. */
        FORWARD,
        /** Read and kept back: the client waits for an answer that never comes. */
        HOLD,
        /** Read, then {@link #onLostAnswer} runs and the client's connection is reset. */
        RESET
    }

    private final ServerSocket listener;
    private final List<Socket> sockets = new ArrayList<>();
    private volatile int targetPort;
    private volatile Mode mode = Mode.FORWARD;
    /** Runs when an answer is lost in {@link Mode#RESET}, before the client's connection is reset. */
    volatile Runnable onLostAnswer = () -> {};
    /** Answers the service gave that the client never saw. */
    final AtomicInteger lostAnswers = new AtomicInteger();

    Proxy(int targetPort) throws IOException {
        this.targetPort = targetPort;
        listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread accepting = new Thread(this::accept, "proxy-accept");
        accepting.setDaemon(true);
        accepting.start();
    }

    int port() {
        return listener.getLocalPort();
    }

    String url() {
        return "http://127.0.0.1:" + port();
    }

    void target(int port) {
        targetPort = port;
    }

    void mode(Mode mode) {
        this.mode = mode;
    }

    private void accept() {
        while (!listener.isClosed()) {
            Socket client;
            try {
                client = listener.accept();
            } catch (IOException closed) {
                return;
            }
            keep(client);
            Thread connection = new Thread(() -> serve(client), "proxy-connection");
            connection.setDaemon(true);
            connection.start();
        }
    }

    private synchronized void keep(Socket socket) {
        sockets.add(socket);
    }

    private void serve(Socket client) {
        Socket service;
        try {
            service = new Socket(InetAddress.getLoopbackAddress(), targetPort);
        } catch (IOException refused) {
            // Nothing listens behind the proxy: the client sees its connection closed.
            closeQuietly(client);
            return;
        }
        keep(service);
        Thread upstream = new Thread(() -> pump(client, service), "proxy-upstream");
        upstream.setDaemon(true);
        upstream.start();
        try {
            InputStream answers = service.getInputStream();
            OutputStream out = client.getOutputStream();
            byte[] chunk = new byte[65536];
            int count;
            while ((count = answers.read(chunk)) > 0) {
                Mode now = mode;
                if (now == Mode.FORWARD) {
                    out.write(chunk, 0, count);
                    out.flush();
                    continue;
                }
                lostAnswers.incrementAndGet();
                if (now == Mode.RESET) {
                    onLostAnswer.run();
                    client.setSoLinger(true, 0);
                    client.close();
                    service.close();
                    return;
                }
                // HOLD: the answer is read and kept back, and the client waits on.
                while (answers.read(chunk) > 0) {
                    // Later answers on this connection are kept back too.
                }
                return;
            }
        } catch (IOException closed) {
            // One side went away: the other is closed below.
        } finally {
            if (mode != Mode.HOLD) {
                closeQuietly(client);
                closeQuietly(service);
            }
        }
    }

    private static void pump(Socket from, Socket to) {
        try {
            InputStream in = from.getInputStream();
            OutputStream out = to.getOutputStream();
            byte[] chunk = new byte[65536];
            int count;
            while ((count = in.read(chunk)) > 0) {
                out.write(chunk, 0, count);
                out.flush();
            }
            to.shutdownOutput();
        } catch (IOException closed) {
            // The connection ended; the answering side notices.
        }
    }

    private static void closeQuietly(Socket socket) {
        try {
            socket.close();
        } catch (IOException alreadyClosed) {
            // Closing is all that was wanted.
        }
    }

    @Override
    public synchronized void close() throws IOException {
        listener.close();
        for (Socket socket : sockets) closeQuietly(socket);
    }
}
