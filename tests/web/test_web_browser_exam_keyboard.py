"""An exam sat with the keyboard only, in headless Chromium on a real server (issue 11 §3,
"keyboard-only usable"): log in, start, answer a single-choice, a multiple-response, a
true/false, a matching and a short-answer question with Tab, Shift+Tab, Space, the arrow
keys and typing, every answer saved on change, then hand in with Enter. At every stop of
the focus: the focus is visible (an outline of at least 2 px whose colour stands out 3:1
from what is behind it) and not hidden under the exam's sticky timer bar. The timer is a
role="timer" region that is not itself live; its announcements go to a polite live
region."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml
from tests.store.exam_helpers import EXTRA, START, exam_catalog, spec

from .test_web_browser import page, pytestmark, running_server  # noqa: F401, F811  (fixture)

BANK = """// [id:sc] [tag:domain-networking]
::SC::Which fabric joins the GPUs of one node?{=NVLink ~Ethernet ~SATA}

// [id:mr] [tag:domain-networking]
::MR::Which are GPU interconnects?{~%50%NVLink ~%50%InfiniBand ~%-100%SATA ~%-100%USB}

// [id:tf] [tag:domain-storage]
::TF::Parallel file systems stripe files over servers.{T}

// [id:m] [tag:domain-storage]
::M::Match each part with its job.{=GPU -> compute =NIC -> network =SSD -> storage}

// [id:sa] [tag:domain-operations]
::SA::Which command lists the GPUs of a node?{=nvidia-smi}
"""

#: What the focus must show, read in the page: the focused element, whether it matches
#: :focus-visible, its outline, the colour behind the outline (the first ancestor with a
#: background), and whether the sticky exam bar covers it.
FOCUS = """() => {
  const el = document.activeElement;
  const cs = getComputedStyle(el);
  let bg = 'rgb(255, 255, 255)';
  for (let n = el.parentElement; n; n = n.parentElement) {
    const c = getComputedStyle(n).backgroundColor;
    if (c && c !== 'transparent' && !c.startsWith('rgba(0, 0, 0, 0')) { bg = c; break; }
  }
  const bar = document.querySelector('.exam-bar');
  const r = el.getBoundingClientRect();
  const b = bar && el !== bar && !bar.contains(el) ? bar.getBoundingClientRect() : null;
  return {
    tag: el.tagName.toLowerCase(), type: el.type || '', name: el.name || '',
    text: (el.innerText || el.value || '').trim().slice(0, 60),
    question: el.closest('fieldset.question') ? el.closest('fieldset.question').id : null,
    focusVisible: el.matches(':focus-visible'),
    outline: cs.outlineStyle, width: parseFloat(cs.outlineWidth), color: cs.outlineColor, behind: bg,
    obscured: b ? (r.top < b.bottom && r.bottom > b.top) : false,
    inView: r.bottom > 0 && r.top < window.innerHeight,
  };
}"""


def _rgb(css: str) -> tuple[float, float, float]:
    parts = css[css.index("(") + 1 : css.index(")")].split(",")
    r, g, b = (float(p) for p in parts[:3])
    return r, g, b


def _contrast(a: str, b: str) -> float:
    def lum(css: str) -> float:
        channels = [c / 255 for c in _rgb(css)]
        lin = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
        return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]

    hi, lo = sorted((lum(a), lum(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def focus(page: Any) -> dict[str, Any]:  # noqa: F811
    """Where the focus is, after checking it can be seen."""
    f: dict[str, Any] = page.evaluate(FOCUS)
    where = f"{f['tag']} {f['name']} {f['text']!r}"
    assert f["focusVisible"] and f["outline"] != "none" and f["width"] >= 2, (
        f"focus not visible on {where}: {f}"
    )
    assert _contrast(f["color"], f["behind"]) >= 3, f"focus outline {f['color']} on {f['behind']} at {where}"
    assert f["inView"] and not f["obscured"], f"focus hidden under the timer bar at {where}"
    return f


def tab_to(page: Any, wanted: Any, *, back: bool = False, limit: int = 40) -> dict[str, Any]:  # noqa: F811
    """Press Tab (Shift+Tab) until ``wanted(focus)`` holds, checking every stop on the way."""
    for _ in range(limit):
        page.keyboard.press("Shift+Tab" if back else "Tab")
        f = focus(page)
        if wanted(f):
            return f
    raise AssertionError(f"the keyboard never reached the element wanted (last: {f})")


@pytest.fixture
def seeded(tmp_path: Path) -> Iterator[tuple[str, Any]]:
    from gputeam import store
    from gputeam.certify import read_bank

    url = f"sqlite:///{tmp_path}/keyboard.db"
    extra = tmp_path / "extra.yaml"
    extra.write_text(yaml.safe_dump(EXTRA), "utf-8")
    db = store.open_database(url)
    with db.session() as s:
        org = store.create_organisation(s, "Acme")
        p = store.add_person(s, org.id, key="ada", name="Ada Lovelace", level=2)
        store.create_user(s, "ada", "e2e password", "engineer", person_id=p.id)
        data = spec(questions=5, domain_weights={"networking": 2, "storage": 2, "operations": 1})
        prog = store.save_programme(s, org.id, "acme-l2", data, catalog=exam_catalog())
        result = read_bank(BANK.encode(), "gift")
        assert not result.errors
        store.import_bank(s, prog.id, result.bank, now=START)
    with running_server(url, tmp_path, GPUTEAM_ORGANISATION="Acme", GPUTEAM_CATALOG_EXTRA=str(extra)) as base:
        yield base, db
    db.dispose()


def test_sit_an_exam_with_the_keyboard_only(seeded: tuple[str, Any], page: Any) -> None:  # noqa: F811
    from playwright.sync_api import expect

    from gputeam import store
    from gputeam.store.schema_exams import ExamAttempt

    server, db = seeded
    page.set_viewport_size({"width": 1000, "height": 600})  # a short window: the page scrolls
    page.goto(server + "/login")
    tab_to(page, lambda f: f["name"] == "username")
    page.keyboard.type("ada")
    tab_to(page, lambda f: f["name"] == "password")
    page.keyboard.type("e2e password")
    page.keyboard.press("Enter")
    page.wait_for_url(server + "/")
    page.goto(server + "/exams")
    tab_to(page, lambda f: f["tag"] == "button" and f["text"] == "Start the exam")
    page.keyboard.press("Enter")
    expect(page.locator("[role=timer]")).to_contain_text("min")

    # the timer: role=timer, not live itself; the announcements: a polite live region
    timer, announce = page.locator("#timer"), page.locator("#timer-announce")
    assert timer.get_attribute("aria-live") in (None, "off")
    expect(announce).to_have_attribute("aria-live", "polite")
    assert page.locator("[aria-live=assertive]").count() == 0

    fieldsets = page.locator("fieldset.question")
    expect(fieldsets).to_have_count(5)
    ids = [fieldsets.nth(k).get_attribute("id") for k in range(5)]
    kinds = {k: fieldsets.nth(k).locator("input[name=present]").get_attribute("value") for k in range(5)}
    expected: dict[str, Any] = {}
    for k, fid in enumerate(ids):
        item = kinds[k]
        fs = fieldsets.nth(k)
        f = tab_to(page, lambda f, fid=fid: f["question"] == fid)
        if f["type"] == "radio":
            # the group: Space picks the option with the focus, the arrow moves and picks
            page.keyboard.press("Space")
            page.keyboard.press("ArrowDown")
            radios = fs.locator("input[type=radio]")
            expect(radios.nth(1)).to_be_checked()
            focus(page)
            expected[item] = radios.nth(1).get_attribute("value")
        elif f["type"] == "checkbox":
            page.keyboard.press("Space")  # the first option
            tab_to(page, lambda f: f["type"] == "checkbox", limit=1)
            page.keyboard.press("Space")  # and the second
            boxes = fs.locator("input[type=checkbox]")
            expect(boxes.nth(0)).to_be_checked()
            expect(boxes.nth(1)).to_be_checked()
            expected[item] = sorted(
                [int(boxes.nth(0).get_attribute("value")), int(boxes.nth(1).get_attribute("value"))]
            )
        elif f["tag"] == "select":
            chosen = []
            for n in range(fs.locator("select").count()):
                if n:
                    tab_to(page, lambda f: f["tag"] == "select", limit=1)
                for _ in range(1 + n % 2):  # the first answer after "—"; the second stem the second
                    page.keyboard.press("ArrowDown")
                chosen.append(fs.locator("select").nth(n).input_value())
            expected[item] = chosen
        else:
            page.keyboard.type("nvidia-smi")
            expected[item] = "nvidia-smi"
    tab_to(page, lambda f: f["tag"] == "button" and f["text"] == "Save answers")  # leaves the text field
    expect(page.locator("#save-status")).to_contain_text("Saved", timeout=15_000)

    # back with Shift+Tab to the first question and change its answer: the question comes
    # back into view below the sticky timer bar, not under it
    tab_to(page, lambda f, first=ids[0]: f["question"] == first, back=True)
    first = kinds[0]
    if fieldsets.nth(0).locator("input[type=radio]").count():
        page.keyboard.press("ArrowUp")
        focus(page)
        expected[first] = fieldsets.nth(0).locator("input[type=radio]").nth(0).get_attribute("value")

    def saved() -> dict[str, Any]:
        with db.session() as s:
            attempt = s.query(ExamAttempt).one()
            view = store.attempt_view(s, attempt, now=attempt.started_at)
        return {k: (str(v).lower() if isinstance(v, bool) else v) for k, v in view["answers"].items()}

    def normalised(values: dict[str, Any]) -> dict[str, Any]:
        return {k: (int(v) if isinstance(v, str) and v.isdigit() else v) for k, v in values.items()}

    for _ in range(60):  # the last save may still be on its way
        if normalised(saved()) == normalised(expected):
            break
        page.wait_for_timeout(250)
    assert normalised(saved()) == normalised(expected)

    # hand in: Tab to the button, Enter
    tab_to(page, lambda f: f["tag"] == "button" and "Hand in" in f["text"])
    page.keyboard.press("Enter")
    expect(page.locator("h2")).to_contain_text("%")
    with db.session() as s:
        assert s.query(ExamAttempt).one().state == "finished"
