"""The archive is opened once per app, even when the first requests arrive together."""

import threading

from viewer.app import create_app, get_archive


def test_concurrent_first_requests_open_one_archive(tmp_path):
    app = create_app({"TESTING": True, "DB": f"sqlite:///{tmp_path / 'a.db'}"})
    opened, errors = [], []
    start = threading.Barrier(8)

    def first_request():
        with app.app_context():
            start.wait()
            try:
                opened.append(get_archive())
            except Exception as exc:  # noqa: BLE001 - any failure is the finding
                errors.append(exc)

    threads = [threading.Thread(target=first_request) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    assert len(opened) == 8 and len({id(a) for a in opened}) == 1


def test_every_page_links_the_tools():
    app = create_app({"TESTING": True, "DB": "sqlite://"})
    html = app.test_client().get("/r/not-a-code").get_data(as_text=True)
    for href in ('href="/games"', 'href="/upload"', 'href="/stats"'):
        assert href in html
