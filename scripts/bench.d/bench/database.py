"""A throwaway PostgreSQL, started and stopped by scripts/lib.sh (the one place that knows how),
and SQL through psql."""
import os
import shutil
import subprocess

from .processes import BenchError, lib


class PostgreSQL:
    """A PostgreSQL on a free port of 127.0.0.1 with its data in FOLDER, until `stop`."""

    def __init__(self, folder):
        self.folder = folder
        printed = lib('start_postgres "$1" >&2 && echo "$POSTGRES_URI $POSTGRES_BIN"', folder).split()
        self.uri, self.bin = printed[0], printed[1]

    def database(self, name):
        """The URI of database NAME, created now."""
        self.sql(self.uri, f"CREATE DATABASE {name}")
        return self.uri.rsplit("/", 1)[0] + "/" + name

    def version(self):
        done = subprocess.run([os.path.join(self.bin, "postgres"), "--version"],
                              stdout=subprocess.PIPE, text=True, check=True)
        return done.stdout.split()[2]

    @staticmethod
    def sql(uri, statement):
        """The rows psql prints of STATEMENT, unaligned, without headers."""
        done = subprocess.run(["psql", uri, "-qAt", "-v", "ON_ERROR_STOP=1", "-c", statement],
                              stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True)
        if done.returncode != 0:
            raise BenchError(f"psql failed: {done.stderr.strip()}\n{statement}")
        return done.stdout.strip()

    def stop(self):
        """Stops it and removes its folder."""
        lib('POSTGRES_BIN="$2" stop_postgres "$1"', self.folder, self.bin)
        shutil.rmtree(self.folder)
