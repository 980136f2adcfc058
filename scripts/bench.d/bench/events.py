"""The events the loads send, in NDJSON lines; the wrk Lua scripts make the same shapes."""

GEOMETRY = ('"contentOffset":{"x":0,"y":%d},"contentSize":{"width":390,"height":%d},'
            '"containerSize":{"width":390,"height":844}')


def readers(article, start, end, prefix="reader"):
    """Readers START..END of one article, each once, as NDJSON."""
    return "".join(
        '{"article":"%s","reader":"%s-%d",%s,"engagedMs":%d}\n'
        % (article, prefix, i, GEOMETRY % ((i * 37) % 4200, 5000), (i * 11) % 60000)
        for i in range(start, end)).encode()


ARTICLE_READERS = 3


def articles(start, end):
    """Events START..END of many articles with ARTICLE_READERS readers each, as NDJSON."""
    return "".join(
        '{"article":"/bench/article-%d","reader":"r-%d",%s}\n'
        % (i // ARTICLE_READERS, i % ARTICLE_READERS,
           GEOMETRY % (((i // ARTICLE_READERS) * 131 + (i % ARTICLE_READERS) * 977) % 4200, 5000))
        for i in range(start, end)).encode()


PAIR_ARTICLES, PAIR_READERS = 200, 100
PAIRS = PAIR_ARTICLES * PAIR_READERS


def pair_heads():
    """The first part of an event on each of PAIRS (article, reader) pairs, open for an id."""
    return [
        '{"article":"/ids/article-%d","reader":"reader-%d",%s,"engagedMs":1000'
        % (pair % PAIR_ARTICLES, pair // PAIR_ARTICLES, GEOMETRY % ((pair * 37) % 4200, 5000))
        for pair in range(PAIRS)
    ]


def on_pairs(heads, with_ids):
    """A `body(start, end)` of events spread over the pairs, each with a new id or none."""
    if with_ids:
        return lambda start, end: "".join(
            heads[i % PAIRS] + ',"id":"e%d"}\n' % i for i in range(start, end)).encode()
    return lambda start, end: "".join(heads[i % PAIRS] + "}\n" for i in range(start, end)).encode()


def random_event(rng, extra=""):
    """One event as bulk.lua makes them, its numbers drawn from RNG; EXTRA adds fields."""
    article, reader, y = rng.randint(0, 99), rng.randint(0, 199999), rng.randint(0, 4000)
    height, engaged = rng.randint(3000, 9000), rng.randint(0, 30000)
    return ('{"article":"/blog/article-%d","reader":"reader-%d",%s,"engagedMs":%d%s}'
            % (article, reader, GEOMETRY % (y, height), engaged, extra))
