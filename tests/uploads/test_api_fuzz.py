"""Schemathesis against ``/api/openapi.json``, in process over WSGI: no 5xx, no response that
breaks the documented schema, status code or content type.

Bounded (a few dozen examples per operation) so it stays well under a minute; it runs in CI.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

import schemathesis
import zstandard
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from schemathesis.checks import (content_type_conformance, not_a_server_error, response_schema_conformance,
                                 status_code_conformance)

from viewer.app import create_app

from .conftest import ADMIN
from .logs import as_bytes, clean_log, revoke_log

_DB = Path(tempfile.mkdtemp(prefix="api-fuzz-")) / "archive.db"
APP = create_app({"TESTING": True, "DB": f"sqlite:///{_DB}", "ADMIN_TOKEN": ADMIN,
                  "UPLOAD_RATE_PER_MINUTE": 100000, "UPLOAD_RATE_BURST": 100000})


def _fill() -> None:
    client = APP.test_client()
    with APP.app_context():
        from viewer.app import get_archive

        archive = get_archive()
        for seed in range(1, 4):
            archive.ingest_bytes(as_bytes(clean_log(seed)), f"g{seed}.json")
        archive.ingest_bytes(as_bytes(revoke_log()), "revoke.json")
        archive.ingest_bytes(b"\xffnot a log", "bad.json")
    client.post("/api/logs", data=as_bytes(clean_log(9)), content_type="application/json")


_fill()
# Bodies for the non-JSON upload types: real logs (a new game each time), broken ones and noise.
_GAME = st.integers(1000, 10**6).map(lambda seed: as_bytes(clean_log(seed)))
schemathesis.openapi.media_type("application/x-ndjson", st.one_of(
    st.lists(_GAME, min_size=1, max_size=3).map(b"\n".join), st.binary(max_size=512)))
schemathesis.openapi.media_type("application/zstd", st.one_of(
    _GAME.map(zstandard.ZstdCompressor().compress), st.binary(max_size=512).map(zstandard.ZstdCompressor().compress),
    st.binary(max_size=512)))
schema = schemathesis.openapi.from_wsgi("/api/openapi.json", APP)
# The WSGI transport hands back bodies as sent and does not undo gzip: ask for none.
PLAIN = {"Accept-Encoding": "identity"}
CHECKS = [not_a_server_error, status_code_conformance, content_type_conformance, response_schema_conformance]


@schema.parametrize()
@settings(max_examples=30, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much, HealthCheck.data_too_large])
def test_api_conforms_to_its_openapi_document(case):
    case.call_and_validate(headers=PLAIN, checks=CHECKS)


@schema.parametrize()
@settings(max_examples=8, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much, HealthCheck.data_too_large])
def test_api_as_admin_conforms_too(case):
    case.call_and_validate(headers={**PLAIN, "Authorization": f"Bearer {ADMIN}"}, checks=CHECKS)
