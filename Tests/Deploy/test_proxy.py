"""Debian's nginx, running deploy/nginx.conf, in front of two nodes on one throwaway PostgreSQL:
what a browser and a reader's client meet in production, checked through the proxy."""

import gzip
import json
import unittest
import uuid

from deploy_support import (
    Nginx, Postgres, Service, connections_to, event, request, samples, stats_path, wait_until)
from smuggling import attempts, exchange

ALLOWED = "https://news.example"


def setUpModule():
    global postgres
    postgres = Postgres()
    unittest.addModuleCleanup(postgres.stop)


class ProxyTests(unittest.TestCase):
    """The nodes and nginx are started once for the class; the test that kills a node runs last
    (unittest runs a class's tests in the order of their names)."""

    @classmethod
    def setUpClass(cls):
        arguments = ["--host", "127.0.0.1", "--trusted-proxies", "127.0.0.1", "--allowed-origins", ALLOWED]
        cls.nodes = []
        for _ in range(2):
            cls.nodes.append(Service(*arguments, store=postgres.uri))
            cls.addClassCleanup(cls.nodes[-1].stop)
        cls.nginx = Nginx(cls.nodes)
        cls.addClassCleanup(cls.nginx.stop)

    def through(self, method, path, body=None, headers=None, source="127.0.0.1"):
        return request(self.nginx.port, method, path, body=body, headers=headers, source=source)

    def post(self, body, source="127.0.0.1", headers=None):
        return self.through("POST", "/v1/events", body=body, headers=headers, source=source)

    def stats(self, article):
        answer = self.through("GET", stats_path(article))
        return answer.json() if answer.status == 200 else None

    def article(self, name):
        return f"/deploy/{name}/{uuid.uuid4().hex[:8]}"

    def test_a_readers_derived_per_client_address_not_per_node(self):
        article = self.article("derived")
        anonymous = event(article, None)
        del anonymous["reader"]
        agent = {"User-Agent": "Mozilla/5.0 (deploy test)"}
        # Four events from 127.0.0.2, two of them claiming another client in X-Forwarded-For
        # (nginx appends the real peer, which the node takes), and two from 127.0.0.3; nginx
        # spreads them over both nodes.
        for forged in [None, "203.0.113.9", None, "198.51.100.7, 203.0.113.9"]:
            headers = dict(agent, **({"X-Forwarded-For": forged} if forged else {}))
            self.assertEqual(self.post(anonymous, source="127.0.0.2", headers=headers).status, 202)
        for _ in range(2):
            self.assertEqual(self.post(anonymous, source="127.0.0.3", headers=agent).status, 202)
        figures = self.stats(article)
        self.assertEqual(figures["events"], 6)
        # Both nodes derived the same reader for one address (one daily salt, in PostgreSQL),
        # and two for two addresses: without X-Forwarded-For they would all be nginx's.
        self.assertEqual(figures["readers"], 2)
        for node in self.nodes:
            answered = samples(node.request("GET", "/metrics").text)
            self.assertGreater(
                answered.get('reading_progress_http_requests_total{route="/v1/events",method="POST",status="202"}', 0),
                0, "nginx sends to both nodes")
        # nginx's log, in the format of deploy/nginx.conf, names neither the client nor its browser.
        logged = (self.nginx.folder / "reading-progress.log").read_text()
        self.assertIn("POST 202", logged)
        for secret in ["127.0.0.2", "127.0.0.3", "203.0.113.9", "Mozilla"]:
            self.assertNotIn(secret, logged)

    def test_b_origin_allowlist(self):
        article = self.article("origins")
        allowed = self.post(event(article, "r1"), headers={"Origin": ALLOWED})
        self.assertEqual(allowed.status, 202)
        self.assertEqual(allowed.header("Access-Control-Allow-Origin"), ALLOWED)
        self.assertEqual(allowed.header("Access-Control-Allow-Credentials"), "true")
        refused = self.post(event(article, "r2"), headers={"Origin": "https://copycat.example"})
        self.assertEqual(refused.status, 403)
        self.assertEqual(refused.json()["error"]["code"], "origin_not_allowed")
        self.assertIsNone(refused.header("Access-Control-Allow-Origin"))
        preflight = self.through("OPTIONS", "/v1/events", headers={
            "Origin": ALLOWED, "Access-Control-Request-Method": "POST",
            "Access-Control-Request-Headers": "content-type"})
        self.assertEqual(preflight.status, 204)
        self.assertEqual(preflight.header("Access-Control-Allow-Origin"), ALLOWED)
        self.assertEqual(self.stats(article)["readers"], 1)

    def test_c_beacons_as_text_plain(self):
        article = self.article("beacon")
        # What navigator.sendBeacon sends for a string: text/plain, the page's Origin, a fresh id.
        headers = {"Content-Type": "text/plain;charset=UTF-8", "Origin": ALLOWED}
        one = dict(event(article, "b1", progress=0.9), id=uuid.uuid4().hex)
        batch = [dict(event(article, f"b{n}", progress=0.2), id=uuid.uuid4().hex) for n in (2, 3)]
        for body in [one, batch]:
            answer = self.post(json.dumps(body).encode(), headers=headers)
            self.assertEqual(answer.status, 202, answer.body)
        # The same beacon again, as a browser may resend: counted once.
        self.assertEqual(self.post(json.dumps(one).encode(), headers=headers).status, 202)
        figures = self.stats(article)
        self.assertEqual((figures["readers"], figures["events"]), (3, 3))

    def test_c_a_full_batch_passes_through_nginx_s_temporary_files(self):
        # Larger than nginx keeps in memory: it writes the body to its temporary folder first.
        article = self.article("batch")
        answer = self.post([event(article, f"reader-{n}") for n in range(1000)])
        self.assertEqual(answer.status, 202, answer.body[:300])
        self.assertEqual(answer.json()["accepted"], 1000)
        self.assertEqual(self.stats(article)["readers"], 1000)

    def test_c_a_body_over_the_limit_is_refused_by_nginx_in_json(self):
        answer = self.post(b"[" + b" " * (1 << 20) + b"]")
        self.assertEqual(answer.status, 413)
        self.assertEqual(answer.header("Content-Type"), "application/json")
        self.assertEqual(answer.json()["error"]["code"], "body_too_large")

    def test_d_tracker_and_dashboard_served_with_validators_and_gzip(self):
        for path, kind in [("/tracker.js", "text/javascript"), ("/", "text/html")]:
            plain = self.through("GET", path)
            self.assertEqual(plain.status, 200, path)
            self.assertTrue(plain.header("Content-Type").startswith(kind), plain.header("Content-Type"))
            etag = plain.header("ETag")
            self.assertTrue(etag, path)
            again = self.through("GET", path, headers={"If-None-Match": etag})
            self.assertEqual(again.status, 304, path)
            self.assertEqual(again.body, b"")
            packed = self.through("GET", path, headers={"Accept-Encoding": "gzip"})
            self.assertEqual(packed.status, 200)
            self.assertEqual(packed.header("Content-Encoding"), "gzip", path)
            self.assertEqual(gzip.decompress(packed.body), plain.body, path)
        self.assertIn(b"sendBeacon", self.through("GET", "/tracker.js").body)

    def test_e_framing_refused_or_normalised_and_no_statistic_changes(self):
        for attempt in attempts():
            with self.subTest(attempt.name):
                answers, closed = exchange(self.nginx.port, attempt)
                self.assertTrue(closed, "the connection ends")
                counted = [(self.stats(article) or {}).get("events", 0) for article in attempt.articles]
                accepted = [answer for answer in answers if answer.status == 202]
                # Whatever nginx made of the bytes, the nodes counted exactly the events whose
                # answers came back to this client: nothing reached a node that nginx did not
                # see as a request of its own.
                self.assertEqual(sum(counted), len(accepted), (answers, counted))
                self.assertTrue(answers, "an answer")
                first = answers[0]
                if attempt.expect == "refused":
                    # nginx's refusals and the nodes' alike, in the API's error format.
                    code = {400: "invalid_request", 501: "unsupported_transfer_coding",
                            505: "unsupported_http_version"}.get(first.status)
                    self.assertEqual(json.loads(first.body)["error"]["code"], code, first.body[:200])
                    if not attempt.version.startswith("HTTP/1."):
                        self.assertEqual(first.status, 505, "nginx refuses the version itself")
                    self.assertEqual(counted, [0, 0])
                elif attempt.expect == "counted":
                    self.assertEqual((first.status, counted), (202, [1, 0]), first.body[:200])
        # No byte of any attempt was left in a kept-alive connection to a node, where it would
        # prefix the next client's request: each of these counts once, with its own answer.
        article = self.article("after-smuggling")
        for reader in range(12):
            answer = self.post(event(article, f"after-{reader}"), source="127.0.0.4")
            self.assertEqual(answer.status, 202, answer.body)
            self.assertEqual(answer.json()["accepted"], 1)
        self.assertEqual(self.stats(article)["events"], 12)

    def test_f_connections_to_the_nodes_are_kept_alive(self):
        def open_to_nodes():
            return set().union(*(connections_to(node.port) for node in self.nodes))
        for _ in range(4):
            self.assertEqual(self.through("GET", "/healthz").status, 200)
        kept = open_to_nodes()
        self.assertTrue(kept, "nginx keeps connections to the nodes open between requests")
        for _ in range(20):
            self.assertEqual(self.through("GET", "/healthz").status, 200)
        # One request at a time reuses the connections open already.
        self.assertEqual(open_to_nodes(), kept)

    def test_z_a_killed_node_is_passed_over(self):
        article = self.article("failover")
        for reader in range(4):
            self.assertEqual(self.post(event(article, f"before-{reader}")).status, 202)
        killed, survivor = self.nodes
        killed.process.kill()
        killed.process.wait()
        # /healthz is what a load balancer probes: it still answers 200 through nginx, every
        # time, and so does every event (nginx hands each to the node still running).
        for _ in range(10):
            health = self.through("GET", "/healthz")
            self.assertEqual((health.status, health.json()), (200, {"status": "ok"}))
        for reader in range(10):
            answer = self.post(event(article, f"after-{reader}"))
            self.assertEqual(answer.status, 202, answer.body)
        figures = wait_until(lambda: self.stats(article), message="the statistics through nginx")
        self.assertEqual((figures["readers"], figures["events"]), (14, 14))
        self.assertEqual(survivor.request("GET", "/healthz").status, 200)


if __name__ == "__main__":
    unittest.main()
