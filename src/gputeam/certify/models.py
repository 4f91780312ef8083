"""Typed, frozen models of a question bank: :class:`Question`, :class:`Answer`,
:class:`MatchPair`, :class:`Category`, :class:`Bank`, and the records an import returns
(:class:`ImportIssue`, :class:`Unsupported`, :class:`ImportResult`).

Question types carry Moodle's own names (``multichoice``, ``truefalse``, ``shortanswer``,
``numerical``, ``match``, ``essay``, ``description``). Fractions are Moodle's: 1.0 is full
marks, negative values are penalties. A true/false question holds two answers, ``true``
and ``false``, with the correct one at fraction 1.
"""

from __future__ import annotations

import hashlib
import json
from typing import ClassVar, Literal

from pydantic import BaseModel, ConfigDict, Field

QType = Literal["multichoice", "truefalse", "shortanswer", "numerical", "match", "essay", "description"]
TextFormat = Literal["moodle", "html", "plain", "markdown", "wiki"]
BankFormat = Literal["gift", "moodle-xml"]

QTYPES: tuple[str, ...] = (
    "multichoice",
    "truefalse",
    "shortanswer",
    "numerical",
    "match",
    "essay",
    "description",
)

#: The tag prefix that names a question's skill domain (``[tag:domain-networking]``).
DOMAIN_TAG_PREFIX = "domain-"


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class EmbeddedFile(_Frozen):
    """A file a Moodle XML text embeds (an image the text shows as ``@@PLUGINFILE@@/name``),
    kept base64-encoded as the file holds it."""

    name: str
    path: str = "/"
    content: str = ""


class Text(_Frozen):
    """A piece of text, the Moodle format it is written in, and the files it embeds
    (Moodle XML only: GIFT cannot hold files)."""

    text: str = ""
    format: TextFormat = "moodle"
    files: tuple[EmbeddedFile, ...] = ()


class Answer(_Frozen):
    """One answer: its text, its fraction of the mark, feedback, and (numerical) tolerance.

    A numerical answer's ``text`` is the number as written, or ``*`` (any other answer)."""

    text: Text = Text()
    fraction: float = 0.0
    feedback: Text = Text()
    tolerance: float | None = None


class MatchPair(_Frozen):
    """A matching sub-question and its answer; an empty question is an extra wrong answer."""

    question: Text = Text()
    answer: str = ""


class Category(_Frozen):
    """A category path as the file writes it (``$course$/top/Networking``)."""

    path: str
    info: Text = Text()
    idnumber: str | None = None


class Question(_Frozen):
    """One question of a bank.

    ``idnumber`` is the author's stable id (GIFT ``[id:...]``, XML ``<idnumber>``);
    ``domain`` the skill domain (from a ``domain-*`` tag or the category mapping);
    ``line`` where it starts in the source file (not part of its content)."""

    qtype: QType
    name: str
    text: Text = Text()
    general_feedback: Text = Text()
    category: str = ""
    idnumber: str | None = None
    tags: tuple[str, ...] = ()
    domain: str | None = None
    default_mark: float = 1.0
    single: bool = True
    case_sensitive: bool = False
    answers: tuple[Answer, ...] = ()
    pairs: tuple[MatchPair, ...] = ()
    line: int | None = Field(default=None, exclude=True)

    @property
    def content_hash(self) -> str:
        """SHA-256 of what a candidate sees and how it is marked (type, name, texts, answers,
        fractions, tolerances, pairs, options); not its category, tags, domain, id or line.
        A new hash is a new version of the item."""
        content = self.model_dump(exclude={"category", "idnumber", "tags", "domain", "line"})
        blob = json.dumps(content, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
        return hashlib.sha256(blob.encode("utf-8")).hexdigest()

    @property
    def item_id(self) -> str:
        """The stable id statistics are kept under: the author's ``idnumber`` when given,
        otherwise derived from the category and name (renaming such an item starts a new one)."""
        if self.idnumber:
            return self.idnumber
        digest = hashlib.sha256(f"{self.category}\x00{self.name}".encode()).hexdigest()
        return "q-" + digest[:16]


class Bank(_Frozen):
    """The questions of one file, in file order, and the categories it names."""

    questions: tuple[Question, ...] = ()
    categories: tuple[Category, ...] = ()


class ImportIssue(_Frozen):
    """An invalid question: where it starts, its name (or text), and what is wrong; an
    unreadable category has :attr:`CATEGORY` as its question."""

    CATEGORY: ClassVar[str] = "(category)"

    line: int | None
    question: str
    message: str


class Unsupported(_Frozen):
    """A question of a type gputeam does not import (e.g. ``multianswer``, Moodle's cloze)."""

    line: int | None
    question: str
    qtype: str
    message: str


class ImportResult(_Frozen):
    """What reading a bank file gives: the valid questions, the invalid ones, the
    unsupported ones, and how the file was decoded."""

    bank: Bank
    errors: tuple[ImportIssue, ...] = ()
    unsupported: tuple[Unsupported, ...] = ()
    format: BankFormat = "gift"
    encoding: str = "utf-8"
