"""Korean particles that agree with the word before them (gputeam.i18n.korean)."""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st
from typer.testing import CliRunner

from gputeam import i18n
from gputeam.i18n.korean import final_sound, particle, resolve

#: a Hangul syllable: (code - 0xAC00) = (initial * 21 + medial) * 28 + final
syllables = st.integers(0, 11171).map(lambda n: chr(0xAC00 + n))


@given(syllables)
def test_object_particle_follows_the_final_consonant(syllable: str) -> None:
    """을 after a final consonant, 를 after a vowel."""
    has_final = (ord(syllable) - 0xAC00) % 28 != 0
    assert resolve(f"사{syllable}을(를) 본다") == f"사{syllable}{'을' if has_final else '를'} 본다"
    assert resolve(f"{syllable}은(는)") == syllable + ("은" if has_final else "는")
    assert resolve(f"{syllable}이(가)") == syllable + ("이" if has_final else "가")
    assert resolve(f"{syllable}와(과)") == syllable + ("과" if has_final else "와")


@given(syllables)
def test_direction_particle_treats_rieul_as_a_vowel(syllable: str) -> None:
    """으로 after a consonant other than ㄹ, 로 after a vowel or ㄹ."""
    final = (ord(syllable) - 0xAC00) % 28
    expected = "로" if final in (0, 8) else "으로"
    assert resolve(f"{syllable}(으)로 간다") == f"{syllable}{expected} 간다"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "Bram de Vries을(를) 네트워크 전문가(레벨 2)(으)로 업스킬링",
            "Bram de Vries를 네트워크 전문가(레벨 2)로 업스킬링",
        ),
        ("Jamal Okafor(레벨 2)은(는)", "Jamal Okafor(레벨 2)는"),  # the word the parenthesis is attached to
        ("(준비)을(를)", "(준비)를"),  # a parenthesis alone: its inside
        ("Priya Raman을(를)", "Priya Raman을"),
        ("Mei Lin Chen이(가)", "Mei Lin Chen이"),
        ("Dae-jung Park을(를)", "Dae-jung Park을"),  # 박
        ("Mark을(를)", "Mark를"),  # 마크
        ("Neil(으)로", "Neil로"),  # l: ㄹ
        ("Kenji Watanabe을(를)", "Kenji Watanabe를"),
        ("GPU이(가)", "GPU가"),  # spelled out: 지피유
        ("HTML(으)로", "HTML로"),  # 엘
        ("레벨 3(으)로", "레벨 3으로"),  # 삼
        ("레벨 2(으)로", "레벨 2로"),  # 이
        ("레벨 1(으)로", "레벨 1로"),  # 일: ㄹ
        ("10(으)로", "10으로"),  # 십
        ("1,000이(가)", "1,000이"),  # 천
        ("US$0.00(으)로", "US$0.00으로"),  # 영
        ("12%이(가)", "12%가"),  # 퍼센트
        ("“Alvarez”와(과)", "“Alvarez”와"),  # inside the quotes
        ("<strong>P-7</strong>을(를)", "<strong>P-7</strong>을"),  # 칠
        ("$을(를)", "$을(를)"),  # cannot be told: the fallback stays
        ("단어 을(를)", "단어 을(를)"),  # not attached to a word
    ],
)
def test_particles_after_names_numbers_and_brackets(text: str, expected: str) -> None:
    assert resolve(text) == expected


def test_final_sound_of_digits_is_their_sino_korean_reading() -> None:
    readings = "영일이삼사오육칠팔구"
    for digit, reading in zip("0123456789", readings, strict=True):
        assert final_sound(digit) == final_sound(reading)
    assert particle("100", "을(를)") == "을"  # 백
    assert particle("20000", "(으)로") == "으로"  # 이만


def test_resolve_continues_a_sentence_after_a_value() -> None:
    assert resolve("을(를) 찾을 수 없습니다", "인원 P-2") == "를 찾을 수 없습니다"


def test_a_translated_problem_agrees_with_its_value() -> None:
    from gputeam.i18n.messages import translate

    with i18n.use("ko"):
        assert translate("no sheet Staff") == "시트 Staff가 없습니다"  # 스태프
        assert translate("no sheet Roster") == "시트 Roster가 없습니다"  # 로스터


def test_web_templates_agree_with_their_values() -> None:
    from gputeam.web.app import _templates

    env = _templates().env
    page = env.from_string("{{ _('Delete %(name)s (%(id)s)?', name=name, id=id) }}")
    with i18n.use("ko"):
        assert page.render(name="Priya Raman", id="P-4") == "Priya Raman(P-4)을 삭제하시겠습니까?"
        assert page.render(name="김하나", id="P-4") == "김하나(P-4)를 삭제하시겠습니까?"


FALLBACK = re.compile(r"\((?:를|을|는|은|가|이|과|와|으)\)")


def test_the_midsize_report_has_no_particle_fallback() -> None:
    from gputeam.cli.main import app

    result = CliRunner().invoke(app, ["plan", "--example", "midsize", "--lang", "ko", "--format", "md"])
    assert result.exit_code == 0, result.output
    assert "전문가" in result.output
    assert FALLBACK.findall(result.output) == []


def test_every_translation_filled_in_with_format_agrees() -> None:
    """``_("...").format(...)`` anywhere (the CLI's and web's own messages) resolves the
    markers of the Korean translation; other languages are untouched."""
    with i18n.use("ko"):
        assert (
            i18n._("cannot read the {what}: {error}").format(what="GPU", error="x")
            == "GPU를 읽을 수 없습니다: x"
        )
        exported = i18n._("exported {rows} rows to {out}")
        assert exported.format(rows=3, out="사람.csv") == "3개 행을 사람.csv로 내보냄"
        assert exported.format(rows=3, out="/tmp/목록") == "3개 행을 /tmp/목록으로 내보냄"
        assert "을(를)" in i18n._("cannot read the {what}: {error}")  # the template keeps its marker
    with i18n.use("de"):
        assert type(i18n._("cannot read the {what}: {error}")) is str
