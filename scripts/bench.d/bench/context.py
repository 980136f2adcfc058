"""What the sections share: the settings, the programs, a scratch folder, the servers started
(each killed at the end if still running) and the figures one section leaves for another."""
import os
import shutil
import tempfile

from . import wrk
from .processes import Server


class Bench:
    def __init__(self, settings, bin_dir, sections):
        self.settings = settings
        self.sections = sections
        self.bin = bin_dir
        self.folder = tempfile.mkdtemp(prefix="reading-progress-bench.")
        self.servers = []
        self.shared = {}
        # Figures one section leaves for another (the single events' rate, the stats database).
        self.results = {}

    def start(self, name, program, *arguments):
        server = Server(name, [os.path.join(self.bin, program), *arguments], self.folder)
        self.servers.append(server)
        return server

    def service(self, name, store):
        """The service on a free port with STORE (`sqlite:PATH`, `memory:`, a PostgreSQL URL)."""
        return self.start(name, "reading-progress", "serve", "--port", "0", "--store", store)

    def ceiling(self, name, *arguments):
        return self.start(name, "bench-ceiling", "--port", "0", *arguments)

    def path(self, name):
        return os.path.join(self.folder, name)

    def once(self, key, make):
        """The server KEY, started by MAKE the first time a section asks for it."""
        server = self.shared.get(key)
        if server is None or not server.alive():
            server = self.shared[key] = make()
        return server

    def plain_ceiling(self):
        """The ceiling configured as the service is (threads, polling, limits, 24 KiB of memory a
        connection)."""
        return self.once("ceiling", lambda: self.ceiling("ceiling"))

    def default_ceiling(self):
        """A ceiling with libmicrohttpd's default 32 KiB a connection, as a bare server has."""
        return self.once("ceiling-default",
                         lambda: self.ceiling("ceiling-default", "--connection-memory", "0"))

    def rate(self, script, server, *arguments, connections=None):
        """Requests a second of one wrk run, with the settings' connections and duration."""
        return wrk.run(script, server.port, arguments,
                       connections or self.settings.connections, self.settings.seconds)

    def meter(self, server):
        return wrk.Meter(server)

    def metered(self, meter, script, *arguments, connections=None):
        return meter.run(script, arguments, connections or self.settings.connections,
                         self.settings.seconds)

    def close(self):
        """Kills every server still running and removes the scratch folder."""
        for server in self.servers:
            server.kill()
        # A scratch folder in /tmp: what cannot be removed is left there, and nothing else.
        shutil.rmtree(self.folder, ignore_errors=True)
