"""Prometheus metrics at ``/metrics``: cases by kind/tier/status, DCP-07 disputes by
type/status/tier and queue depth (read from
the database at scrape time, so every worker reports the same figures) and request latency
(per process; with ``--workers N`` each worker answers its own histogram)."""

from __future__ import annotations

from collections.abc import Iterable

from prometheus_client import CollectorRegistry, Histogram, generate_latest
from prometheus_client.core import GaugeMetricFamily, Metric
from prometheus_client.registry import Collector

from accord.api.queries.case_pages import case_counts, queue_depth
from accord.disputes import dispute_counts
from accord.store import Database

CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8"

class _StoreCollector(Collector):
    def __init__(self, db: Database) -> None:
        self._db = db

    def collect(self) -> Iterable[Metric]:
        cases = GaugeMetricFamily(
            "accord_cases",
            "Cases by conflict kind, tier and status",
            labels=["kind", "tier", "status"],
        )
        for kind, tier, status, count in case_counts(self._db):
            cases.add_metric([kind, tier, status], count)
        yield cases
        disputes = GaugeMetricFamily(
            "accord_disputes",
            "DCP-07 disputes by type, status and tier",
            labels=["dispute_type", "status", "tier"],
        )
        for dispute_type, status, tier, count in dispute_counts(self._db):
            disputes.add_metric([dispute_type, status, tier], count)
        yield disputes
        depth = GaugeMetricFamily("accord_approval_queue_depth", "Pending approval items")
        depth.add_metric([], queue_depth(self._db))
        yield depth

class Metrics:
    """One registry per app (tests build many apps in one process)."""

    def __init__(self, db: Database) -> None:
        self.registry = CollectorRegistry()
        self.latency = Histogram(
            "accord_http_request_duration_seconds",
            "HTTP request latency",
            ["method", "route", "status"],
            registry=self.registry,
            buckets=(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5),
        )
        self.registry.register(_StoreCollector(db))

    def observe(self, method: str, route: str, status: int, seconds: float) -> None:
        self.latency.labels(method, route, str(status)).observe(seconds)

    def render(self) -> bytes:
        return generate_latest(self.registry)
