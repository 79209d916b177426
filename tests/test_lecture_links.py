"""The link for the class: an address a phone can open, and a QR code that decodes back to it (issue 32 item 1)."""

import io
import sys
from pathlib import Path

import numpy as np
import pytest
import segno
from apptest import open_page
from PIL import Image

from ikviz import tours

APP = Path(__file__).resolve().parents[1] / "app"
sys.path.insert(0, str(APP))
import tour as tour_bar  # noqa: E402

STEP = tours.step_url("ting2018", 1, present=False)   # kernel-shapes?...&tour=ting2018&step=1


@pytest.mark.parametrize("host", ["localhost", "127.0.0.1", "[::1]", "0.0.0.0", "app.localhost"])
def test_loopback_hosts_are_recognised(host):
    assert tour_bar.is_loopback(host)


@pytest.mark.parametrize("host", ["192.168.1.20", "10.0.0.3", "ikviz.example.org", "[2001:db8::1]", "localhost.org"])
def test_network_hosts_are_not_loopback(host):
    assert not tour_bar.is_loopback(host)


def test_the_host_is_the_one_the_lecturers_browser_used():
    base, note = tour_bar.class_base("http://192.168.1.20:8501/kernel-shapes", {}, lan="10.9.9.9",
                                     page="kernel-shapes")
    assert (base, note) == ("http://192.168.1.20:8501", None)
    # a path prefix (the app served under /ikviz behind a proxy) is kept
    base, _ = tour_bar.class_base("https://uni.example.org/ikviz/kernel-shapes", {}, page="kernel-shapes")
    assert base == "https://uni.example.org/ikviz"


def test_without_the_browsers_url_the_request_headers_tell_it_a_proxys_first():
    headers = {"host": "127.0.0.1:8501", "X-Forwarded-Host": "ikviz.example.org", "x-forwarded-proto": "https"}
    assert tour_bar.class_base(None, headers) == ("https://ikviz.example.org", None)
    assert tour_bar.class_base(None, {"Host": "lab-pc.local:8502"}) == ("http://lab-pc.local:8502", None)
    assert tour_bar.class_base(None, {}) == (None, None)


def test_ikviz_public_url_wins_and_a_bad_one_is_refused_with_a_note():
    base, note = tour_bar.class_base("http://127.0.0.1:8501/", {"Host": "127.0.0.1:8501"},
                                     public="https://ikviz.uni.example/ ", lan="192.168.0.4")
    assert (base, note) == ("https://ikviz.uni.example", None)
    base, note = tour_bar.class_base("http://127.0.0.1:8501/", {}, public="ikviz.uni.example")
    assert base is None and tour_bar.PUBLIC_URL_ENV in note


def test_a_loopback_address_becomes_the_network_address_with_the_same_port():
    base, note = tour_bar.class_base("http://localhost:8501/kernel-shapes", {}, lan="192.168.0.4",
                                     page="kernel-shapes", bound_to="")
    assert base == "http://192.168.0.4:8501" and "192.168.0.4" in note
    assert not tour_bar.is_loopback(base.split("//")[1].split(":")[0])


def test_loopback_only_when_that_is_all_there_is_and_then_the_popover_says_so():
    base, note = tour_bar.class_base("http://127.0.0.1:8501/kernel-shapes", {}, lan=None, page="kernel-shapes")
    assert base == "http://127.0.0.1:8501" and "Only this computer" in note
    # a server bound to loopback: the network address would not answer, so it is not offered
    base, note = tour_bar.class_base("http://127.0.0.1:8501/", {}, lan="192.168.0.4", bound_to="127.0.0.1")
    assert base == "http://127.0.0.1:8501" and "loopback only" in note


def test_the_lan_address_is_never_a_loopback_one():
    lan = tour_bar.lan_address()
    assert lan is None or not tour_bar.is_loopback(lan)


def test_the_popover_shows_the_public_link_and_an_image_not_html(monkeypatch):
    monkeypatch.setenv(tour_bar.PUBLIC_URL_ENV, "https://ikviz.uni.example")
    _page, query = tours.parse_step(tours.step_url("ting2018", 0))
    at = open_page("how_ik_is_built", **query)
    assert any(c.value == f"https://ikviz.uni.example/{tours.step_url('ting2018', 0, present=False)}"
               for c in at.code)
    assert len(at.get("image")) >= 1                         # st.image: an <img>, which every browser draws
    assert not any("<svg" in (getattr(h.proto, "body", "") or "") for h in at.get("html"))


# ------------------------------------------------------------------ the QR code
def _png(url: str) -> Image.Image:
    png = tour_bar.qr_png(url)
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    return Image.open(io.BytesIO(png))


URLS = ["http://192.168.0.4:8501/" + STEP, "https://ikviz.uni.example/ikviz/tsne?perplexity=30&psi=8&tour=ting2021"
        "&step=4", "http://127.0.0.1:8501/claims"]


@pytest.mark.parametrize("url", URLS)
def test_the_qr_code_decodes_back_to_the_link(url):
    zxingcpp = pytest.importorskip("zxingcpp")   # test dependency: zxing-cpp (a decoder independent of segno)
    found = zxingcpp.read_barcodes(_png(url))
    assert [r.text for r in found] == [url]
    assert found[0].format == zxingcpp.BarcodeFormat.QRCode


@pytest.mark.parametrize("url", URLS)
def test_the_qr_image_is_segnos_matrix_pixel_for_pixel(url):
    """Without a decoder: each 8-px module of the image is black exactly where the QR matrix has a dark module."""
    image = np.asarray(_png(url).convert("L"))
    matrix = np.array(segno.make(url, error="m").matrix, dtype=bool)
    n, scale, border = matrix.shape[0], 8, 4
    assert image.shape == ((n + 2 * border) * scale,) * 2
    modules = image[scale // 2::scale, scale // 2::scale]    # the centre pixel of every module
    assert (modules[border:-border, border:-border] < 128).tolist() == matrix.tolist()
    assert (modules[:border] > 128).all() and (modules[-border:] > 128).all()   # the quiet zone is white
