"""The arithmetic of the report: means and ratios as the report prints them."""
import datetime
import os


def mean(values):
    """The mean to a whole number, as printed; later ratios are of the printed figures."""
    return float("%.0f" % (sum(values) / len(values)))


def mean_fine(values):
    """The mean to a hundredth (for bulk requests of 1000 events each)."""
    return float("%.2f" % (sum(values) / len(values)))


def ratio(a, b):
    return "%.2f" % (a / b) if b else "n/a"


def whole(value):
    return "%.0f" % value


def rate(value):
    """A wrk rate as wrk prints it."""
    return "%.2f" % value


def events(requests_per_second):
    """Events a second of requests of 1000 events."""
    return int(requests_per_second * 1000)


def per(kib_before, kib_after, count, digits):
    """Bytes of resident memory an item, from two readings in KiB."""
    return "%.*f" % (digits, (kib_after - kib_before) * 1024 / count)


LABEL = 27
INDENT = " " * LABEL


def line(label, text):
    """A report line: the label in its column, then the figures."""
    return label.ljust(LABEL) + text


def header(settings):
    now = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%MZ")
    return (f"ReadingProgress benchmark — {now}, {len(os.sched_getaffinity(0))} cores, "
            f"rounds {settings.rounds} × {settings.seconds}s")


def day(offset_days=0):
    """The UTC date OFFSET_DAYS from today, as YYYY-MM-DD."""
    today = datetime.datetime.now(datetime.timezone.utc).date()
    return (today + datetime.timedelta(days=offset_days)).isoformat()
