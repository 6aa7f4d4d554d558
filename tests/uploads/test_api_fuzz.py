"""Schemathesis against ``/api/openapi.json``, in process over WSGI, with every check it has (what
``schemathesis run --checks all`` runs): no 5xx; status codes, headers, content types and bodies
as documented; schema-valid requests accepted and schema-invalid ones refused; a missing
``Authorization`` answered 401; auth enforced where declared.

Bounded and reproducible: a fixed number of examples per operation, derandomized, so the whole
file takes well under a minute on two cores; it runs in CI with plain ``pytest``.

Upload bodies: what makes a body a game log (real cards, a known format) is more than JSON
Schema can say, so the generated upload bodies are real logs (a new game each time) in every
media type; junk bodies go to :func:`test_junk_upload_bodies_are_refused_as_documented`, which
checks everything but "schema-valid data is accepted".
"""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest
import schemathesis
import zstandard
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from schemathesis.checks import CHECKS, is_check_class, load_all_checks, positive_data_acceptance

from replay.games import get as get_game
from viewer.app import create_app

from .conftest import ADMIN
from .logs import as_bytes, clean_log, revoke_log

_DB = Path(tempfile.mkdtemp(prefix="api-fuzz-")) / "archive.db"
APP = create_app({"TESTING": True, "DB": f"sqlite:///{_DB}", "ADMIN_TOKEN": ADMIN,
                  "UPLOAD_RATE_PER_MINUTE": 100000, "UPLOAD_RATE_BURST": 100000,
                  "STUDY_RATE_PER_MINUTE": 100000, "STUDY_RATE_BURST": 100000})


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
# Real logs, a new game each time (seeds far from the ones above), for every upload media type.
_GAME = st.integers(1000, 10**6).map(lambda seed: as_bytes(clean_log(seed)))
schemathesis.openapi.media_type("application/json", _GAME)
schemathesis.openapi.media_type("application/x-ndjson", st.lists(_GAME, min_size=1, max_size=3).map(b"\n".join))
schemathesis.openapi.media_type("application/zstd", _GAME.map(zstandard.ZstdCompressor().compress))
schema = schemathesis.openapi.from_wsgi("/api/openapi.json", APP)
# The WSGI transport hands back bodies as sent and does not undo gzip: ask for none.
PLAIN = {"Accept-Encoding": "identity"}
# Every check schemathesis has (the built-in ones and any registered), not only those a config enables.
load_all_checks()
ALL_CHECKS = [check for check in CHECKS.get_all() if not is_check_class(check)]
BOUNDED = settings(max_examples=25, deadline=None, derandomize=True, database=None,
                   suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much,
                                          HealthCheck.data_too_large])


def test_every_check_is_in_the_run():
    names = {check.__name__ for check in ALL_CHECKS}
    assert {"not_a_server_error", "status_code_conformance", "content_type_conformance",
            "response_headers_conformance", "response_schema_conformance", "positive_data_acceptance",
            "negative_data_rejection", "missing_required_header", "ignored_auth",
            "unsupported_method"} <= names


@schema.parametrize()
@BOUNDED
def test_api_conforms_to_its_openapi_document(case):
    case.call_and_validate(headers=PLAIN, checks=ALL_CHECKS)


@schema.parametrize()
@settings(BOUNDED, max_examples=8)
def test_api_as_admin_conforms_too(case):
    case.call_and_validate(headers={**PLAIN, "Authorization": f"Bearer {ADMIN}"}, checks=ALL_CHECKS)


_UPLOAD = schema["/api/logs"]["POST"]
_JUNK = st.one_of(st.binary(max_size=512), st.binary(max_size=512).map(zstandard.ZstdCompressor().compress),
                  _GAME.map(lambda data: data[: len(data) // 2]))


@BOUNDED
@given(body=_JUNK, media_type=st.sampled_from(["application/json", "application/x-ndjson", "application/zstd"]))
def test_junk_upload_bodies_are_refused_as_documented(body, media_type):
    case = _UPLOAD.Case(body=body, media_type=media_type, query={"name": "junk.json"})
    checks = [check for check in ALL_CHECKS if check is not positive_data_acceptance]
    case.call_and_validate(headers=PLAIN, checks=checks)
