"""Korean particles that agree with the word before them.

A Korean particle has two forms, chosen by the final sound of the word it follows: 을 after
a final consonant (batchim), 를 after a vowel; 이/가, 은/는, 과/와 the same way; 으로 after a
consonant other than ㄹ, 로 after a vowel or ㄹ. A translated template cannot know the value
that fills ``{name}``, so the Korean catalog writes the particle as a marker, ``{name}을(를)``,
``{role}(으)로``, and :func:`resolve` replaces each marker of a filled-in sentence with the
one form that fits the text just before it (a Korean translation that has a marker is an
:class:`Agreeing` string, whose ``format`` does so as it fills the placeholders in):

- a Hangul syllable: its final consonant, from its code point ((code - 0xAC00) % 28; 0 is
  none, 8 is ㄹ);
- digits: their Sino-Korean reading: the last digit (0 영, 1 일, 2 이, 3 삼, 4 사, 5 오,
  6 육, 7 칠, 8 팔, 9 구), or for a whole number ending in zeros the unit it is read with
  (10 십, 100 백, 1,000 천, 10,000 만, 10^8 억, 10^12 조); ``%`` is read 퍼센트;
- Latin letters: their usual Korean reading: an all-capital word is spelled out (GPU 지피유,
  HTML 에이치티엠엘), a word by its last letters (l: ㄹ; m, n, ng: a consonant; a vowel,
  r, w, y, s, z, d, g, f, v, x, h and a silent e: a vowel; b, c, k, p, t after one short
  vowel: a consonant, else a vowel, "Nowak" 노왁 but "Smart" 스마트; a romanised Korean
  surname by its Hangul, Park 박);
- a closing parenthesis or bracket: the word the parenthesis is attached to ("전문가(레벨
  2)" reads 전문가), or the text inside when it stands alone; a closing quote or an HTML or
  Markdown tag: the text inside.

Where the final sound cannot be told (a symbol), the marker stays as it is, the fallback a
Korean reader accepts.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Any, Literal

__all__ = ["Agreeing", "Sound", "agreeing", "final_sound", "particle", "resolve"]

Sound = Literal["vowel", "rieul", "consonant"]

#: marker -> (form after a consonant, form after a vowel, form after ㄹ)
_MARKERS: dict[str, tuple[str, str, str]] = {
    "을(를)": ("을", "를", "을"),
    "를(을)": ("을", "를", "을"),
    "이(가)": ("이", "가", "이"),
    "가(이)": ("이", "가", "이"),
    "은(는)": ("은", "는", "은"),
    "는(은)": ("은", "는", "은"),
    "과(와)": ("과", "와", "과"),
    "와(과)": ("과", "와", "과"),
    "(으)로": ("으로", "로", "로"),
    "(이)나": ("이나", "나", "이나"),
    "(이)라": ("이라", "라", "이라"),
}
_MARKER = re.compile("|".join(re.escape(m) for m in sorted(_MARKERS, key=len, reverse=True)))

_DIGITS: dict[str, Sound] = {
    "0": "consonant",  # 영
    "1": "rieul",  # 일
    "2": "vowel",  # 이
    "3": "consonant",  # 삼
    "4": "vowel",  # 사
    "5": "vowel",  # 오
    "6": "consonant",  # 육
    "7": "rieul",  # 칠
    "8": "rieul",  # 팔
    "9": "vowel",  # 구
}
#: a whole number's last unit by its number of trailing zeros: 십 백 천 만 억 조 경
_UNITS: tuple[tuple[int, Sound], ...] = (
    (16, "consonant"),  # 경
    (12, "vowel"),  # 조
    (8, "consonant"),  # 억
    (4, "consonant"),  # 만
    (3, "consonant"),  # 천
    (2, "consonant"),  # 백
    (1, "consonant"),  # 십
)
#: the Korean names of the Latin letters (spelled-out abbreviations): L 엘, R 알 end in ㄹ,
#: M 엠, N 엔 in a consonant, the others (에이, 비, 씨, 디, ... 엑스, 와이, 제트) in a vowel
_LETTER_NAMES: dict[str, Sound] = {"L": "rieul", "R": "rieul", "M": "consonant", "N": "consonant"}
_VOWELS = "aeiou"
#: romanised Korean surnames whose last letter the rules below would read otherwise
_KOREAN_NAMES: dict[str, Sound] = {
    "park": "consonant",
    "baek": "consonant",
    "paik": "consonant",
    "seok": "consonant",
}
_CLOSERS = {")": "(", "]": "[", "）": "（"}
_QUOTES = "\"'”’»›」』"
_TAG = re.compile(r"(?:</?[A-Za-z][^<>]*>|\*+|`+|_+)$")
_NUMBER = re.compile(r"[0-9][0-9.,]*$")
_WORD = re.compile(r"[A-Za-z]+$")


def _hangul(char: str) -> Sound | None:
    code = ord(char)
    if 0xAC00 <= code <= 0xD7A3:
        final = (code - 0xAC00) % 28
        return "vowel" if final == 0 else "rieul" if final == 8 else "consonant"
    if 0x3131 <= code <= 0x314E:  # a consonant letter on its own (ㄱ ... ㅎ)
        return "rieul" if char == "ㄹ" else "consonant"
    if 0x314F <= code <= 0x3163:  # a vowel letter on its own
        return "vowel"
    return None


def _number(token: str) -> Sound:
    if "." in token.rstrip(".,"):
        return _DIGITS[token.rstrip(".,")[-1]]  # decimals are read digit by digit
    digits = re.sub(r"[.,]", "", token).lstrip("0")
    if not digits:
        return "consonant"  # 영
    zeros = len(digits) - len(digits.rstrip("0"))
    for least, sound in _UNITS:
        if zeros >= least:
            return sound
    return _DIGITS[digits[-1]]


def _latin(word: str) -> Sound:
    if word.isupper() or word[-1].isupper():
        return _LETTER_NAMES.get(word[-1].upper(), "vowel")  # spelled out: GPU 지피유
    w = word.lower()
    if w in _KOREAN_NAMES:
        return _KOREAN_NAMES[w]  # Park 박
    last = w[-1]
    if w.endswith("ng"):
        return "consonant"  # 링
    if last == "l":
        return "rieul"  # Neil 닐
    if last in "mn":
        return "consonant"  # Chen 천, Adam 애덤
    if last == "e" and len(w) > 2 and w[-2] not in _VOWELS:
        if w[-2] == "l":
            return "rieul"  # rule 룰
        if w[-2] in "mn" and w[-3] in _VOWELS:
            return "consonant"  # name 네임, line 라인
        return "vowel"  # Kate 케이트, Watanabe 와타나베
    if last in "bckpt" and len(w) > 1 and w[-2] in _VOWELS and (len(w) == 2 or w[-3] not in _VOWELS):
        return "consonant"  # Nowak 노왁, Bob 밥, Eric 에릭
    if last == "k" and w.endswith("ck") and len(w) > 2 and w[-3] in _VOWELS:
        return "consonant"  # Jack 잭
    return "vowel"  # Okafor 오카포, Alvarez 알바레스, Smart 스마트


def final_sound(text: str) -> Sound | None:
    """The final sound of ``text`` as a Korean reader says it, or None when it cannot be
    told (see the module's rules)."""
    text = text.rstrip()
    while text:
        tag = _TAG.search(text)
        if tag:
            text = text[: tag.start()].rstrip()
            continue
        last = text[-1]
        if last in _QUOTES:
            text = text[:-1]
            continue
        if last in _CLOSERS:
            depth, opener = 0, _CLOSERS[last]
            for i in range(len(text) - 1, -1, -1):
                if text[i] == last:
                    depth += 1
                elif text[i] == opener:
                    depth -= 1
                    if depth == 0:
                        before = text[:i]
                        if before and not before[-1].isspace() and before[-1] not in "([":
                            return final_sound(before)  # 전문가(레벨 2): 전문가
                        return final_sound(text[i + 1 : -1])  # (레벨 2) alone: its inside
            return final_sound(text[:-1])  # no opener: what is before it
        sound = _hangul(last)
        if sound is not None:
            return sound
        if last == "%":
            return "vowel"  # 퍼센트
        number = _NUMBER.search(text)
        if number:
            return _number(number.group())
        plain = unicodedata.normalize("NFKD", text[-12:])
        plain = "".join(c for c in plain if not unicodedata.combining(c))
        word = _WORD.search(plain)
        if word:
            return _latin(word.group())
        return None
    return None


def particle(word: str, marker: str) -> str:
    """The form of ``marker`` (``을(를)``, ``(으)로`` ...) that follows ``word``; the marker
    itself when the word's final sound cannot be told."""
    forms = _MARKERS[marker]
    sound = final_sound(word)
    if sound is None:
        return marker
    return forms[0] if sound == "consonant" else forms[1] if sound == "vowel" else forms[2]


def resolve(text: str, before: str = "") -> str:
    """``text`` with each particle marker that follows a word replaced by its fitting form
    (``before``: the text that precedes ``text``, for a marker at its start)."""
    if "(" not in text:
        return text
    out: list[str] = []
    position = 0
    for match in _MARKER.finditer(text):
        out.append(text[position : match.start()])
        context = before + "".join(out)
        if context and not context[-1].isspace():
            out.append(particle(context, match.group()))
        else:
            out.append(match.group())
        position = match.end()
    out.append(text[position:])
    return "".join(out)


class Agreeing(str):
    """A Korean translation with particle markers: filling it in (``format``,
    ``format_map``, ``%``) resolves its markers, so every ``_("...").format(...)`` agrees."""

    __slots__ = ()

    def format(self, /, *args: Any, **kwargs: Any) -> str:
        return resolve(str.format(self, *args, **kwargs))

    def format_map(self, mapping: Any, /) -> str:
        return resolve(str.format_map(self, mapping))

    def __mod__(self, values: Any, /) -> str:
        return resolve(str.__mod__(self, values))


def agreeing(text: str) -> str:
    """``text`` (a Korean translation) as :class:`Agreeing` when it has a particle marker."""
    return Agreeing(text) if "(" in text and _MARKER.search(text) else text
