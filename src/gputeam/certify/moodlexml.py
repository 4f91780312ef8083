"""Moodle XML: read and write the question bank format of Moodle's
``question/format/xml/format.php``.

A ``<quiz>`` holds ``<question type="...">`` elements; ``type="category"`` switches to a
category path (``$course$/top/Networking/Switches``: nested categories are written as
paths). Texts carry ``format="html|moodle_auto_format|plain_text|markdown|wiki_like"``.
Parsing goes through defusedxml (no entity expansion, no external resources). Cloze
(``multianswer``) and other types gputeam does not mark are reported as unsupported.
"""

from __future__ import annotations

import re
import xml.sax
import xml.sax.handler
from collections.abc import Mapping
from dataclasses import dataclass, field
from xml.sax.saxutils import quoteattr

import defusedxml
import defusedxml.sax

from gputeam.certify.models import (
    Answer,
    Bank,
    Category,
    EmbeddedFile,
    ImportIssue,
    MatchPair,
    Question,
    Text,
    TextFormat,
    Unsupported,
)
from gputeam.certify.rules import (
    BankReadError,
    check_question,
    clean_name,
    drop_duplicate_ids,
    percent,
    resolve_domain,
    snap_grade,
    trim,
)
from gputeam.i18n import N_

_FORMAT_IN: dict[str, TextFormat] = {
    "moodle_auto_format": "moodle",
    "html": "html",
    "plain_text": "plain",
    "markdown": "markdown",
    "wiki_like": "wiki",
}
_FORMAT_OUT = {v: k for k, v in _FORMAT_IN.items()}
_QTYPE_IN = {"matching": "match", "cloze": "multianswer"}
_QTYPE_OUT = {"match": "matching"}


@dataclass
class _Node:
    tag: str
    attrs: dict[str, str]
    line: int
    children: list[_Node] = field(default_factory=list)
    chunks: list[str] = field(default_factory=list)

    def child(self, tag: str) -> _Node | None:
        return next((c for c in self.children if c.tag == tag), None)

    def all(self, tag: str) -> list[_Node]:
        return [c for c in self.children if c.tag == tag]

    @property
    def text(self) -> str:
        return "".join(self.chunks)


class _Builder(xml.sax.handler.ContentHandler):
    def __init__(self) -> None:
        super().__init__()
        self.stack: list[_Node] = []
        self.root: _Node | None = None
        self.locator: xml.sax.xmlreader.Locator | None = None

    def setDocumentLocator(self, locator: xml.sax.xmlreader.Locator) -> None:  # noqa: N802 (SAX API)
        self.locator = locator

    def startElement(self, name: str, attrs: xml.sax.xmlreader.AttributesImpl) -> None:  # noqa: N802
        line = (self.locator.getLineNumber() or 0) if self.locator else 0
        node = _Node(name, dict(attrs.items()), line)
        if self.stack:
            self.stack[-1].children.append(node)
        else:
            self.root = node
        self.stack.append(node)

    def endElement(self, name: str) -> None:  # noqa: N802
        self.stack.pop()

    def characters(self, content: str) -> None:
        if self.stack:
            self.stack[-1].chunks.append(content)


_DECLARATION = re.compile(r"^\s*<\?xml[^>]*\?>")


def _parse(text: str) -> _Node:
    # The text is already decoded: drop the declaration (and its encoding) and parse UTF-8.
    body = _DECLARATION.sub(lambda m: "\n" * m.group(0).count("\n"), text.lstrip("\ufeff"), count=1)
    builder = _Builder()
    try:
        defusedxml.sax.parseString(body.encode("utf-8"), builder)
    except xml.sax.SAXParseException as exc:
        raise BankReadError(
            N_("not well-formed XML: {reason}").format(reason=exc.getMessage()), exc.getLineNumber()
        ) from None
    except defusedxml.DefusedXmlException as exc:
        raise BankReadError(N_("refused XML: {reason}").format(reason=exc)) from None
    if builder.root is None or builder.root.tag != "quiz":
        found = builder.root.tag if builder.root else "nothing"
        raise BankReadError(
            N_("not a Moodle XML question file: the root element is <{found}>, expected <quiz>").format(
                found=found
            ),
            1,
        )
    return builder.root


def _path(node: _Node | None, *tags: str) -> _Node | None:
    for tag in tags:
        if node is None:
            return None
        node = node.child(tag)
    return node


def _str(node: _Node | None, *tags: str, default: str = "") -> str:
    found = _path(node, *tags)
    if found is None:
        return default
    if found.children:
        raise ValueError(
            N_(
                "{element} at line {line} holds unescaped markup ({child}): put it in <![CDATA[ ... ]]>"
            ).format(element=f"<{found.tag}>", line=found.line, child=f"<{found.children[0].tag}>")
        )
    return trim(found.text)


def _fmt(name: str | None, default: TextFormat) -> TextFormat:
    if name is None:
        return default
    return _FORMAT_IN.get(name.strip(), "html")


def _text(node: _Node | None, default: TextFormat) -> Text:
    if node is None:
        return Text(format=default)
    files = tuple(
        EmbeddedFile(
            name=f.attrs.get("name", ""), path=f.attrs.get("path", "/"), content="".join(f.text.split())
        )
        for f in node.all("file")
    )
    return Text(text=_str(node, "text"), format=_fmt(node.attrs.get("format"), default), files=files)


def _float(value: str, what: str) -> float:
    try:
        return float(value)
    except ValueError:
        raise ValueError(N_("{what} {value} is not a number").format(what=what, value=repr(value))) from None


def _answer(node: _Node, fmt: TextFormat, rich: bool) -> Answer:
    fraction = _float(node.attrs.get("fraction", "0"), "fraction") / 100
    deprecated = _path(node, "fraction")
    if deprecated is not None:
        fraction = _float(trim(deprecated.text), "fraction")
    text = _text(node, fmt) if rich else Text(text=_str(node, "text"), format="plain")
    return Answer(text=text, fraction=snap_grade(fraction), feedback=_text(node.child("feedback"), fmt))


def _question(node: _Node, qtype: str, category: str) -> dict[str, object]:
    name_node = _path(node, "name", "text")
    if name_node is None:
        raise ValueError(N_("the question has no <name><text>"))
    text = _text(node.child("questiontext"), "html")
    fmt = text.format
    tag_nodes = tags_node.all("tag") if (tags_node := node.child("tags")) is not None else []
    tags = tuple(t for t in (_str(tag, "text") for tag in tag_nodes) if t)
    fields: dict[str, object] = {
        "qtype": qtype,
        "name": clean_name(name_node.text),
        "text": text,
        "general_feedback": _text(node.child("generalfeedback"), fmt),
        "category": category,
        "idnumber": _str(node, "idnumber") or None,
        "tags": tags,
        "line": node.line,
        "default_mark": 0.0
        if qtype == "description"
        else _float(_str(node, "defaultgrade", default="1"), "defaultgrade"),
    }
    answers = node.all("answer")
    if qtype == "multichoice":
        single = _str(node, "single", default="true")
        fields["single"] = single not in ("false", "0", "")
        fields["answers"] = tuple(_answer(a, fmt, rich=True) for a in answers)
    elif qtype == "shortanswer":
        fields["case_sensitive"] = _str(node, "usecase", default="0") not in ("0", "", "false")
        fields["answers"] = tuple(_answer(a, fmt, rich=False) for a in answers)
    elif qtype == "numerical":
        fields["answers"] = tuple(
            _answer(a, fmt, rich=False).model_copy(
                update={"tolerance": _float(_str(a, "tolerance", default="0") or "0", "tolerance")}
            )
            for a in answers
        )
    elif qtype == "truefalse":
        correct = True
        feedback = {"true": Text(format=fmt), "false": Text(format=fmt)}
        for i, a in enumerate(answers):
            said = _str(a, "text")
            which = said if said in ("true", "false") else ("true" if i == 0 else "false")
            is_full = _float(a.attrs.get("fraction", "0"), "fraction") == 100
            correct = is_full if which == "true" else not is_full
            feedback[which] = _text(a.child("feedback"), fmt)
        fields["answers"] = (
            Answer(
                text=Text(text="true", format="plain"),
                fraction=1.0 if correct else 0.0,
                feedback=feedback["true"],
            ),
            Answer(
                text=Text(text="false", format="plain"),
                fraction=0.0 if correct else 1.0,
                feedback=feedback["false"],
            ),
        )
    elif qtype == "match":
        fields["pairs"] = tuple(
            MatchPair(question=_text(s, fmt), answer=_str(s, "answer", "text"))
            for s in node.all("subquestion")
        )
    return fields


def read_moodle_xml(
    text: str, category_domains: Mapping[str, str] | None = None
) -> tuple[Bank, list[ImportIssue], list[Unsupported]]:
    """Parse Moodle XML text into a bank, the invalid questions and the unsupported ones.
    Raises :class:`BankReadError` when the text is not a well-formed ``<quiz>``."""
    root = _parse(text)
    questions: list[Question] = []
    categories: list[Category] = []
    errors: list[ImportIssue] = []
    unsupported: list[Unsupported] = []
    category = ""
    for node in root.all("question"):
        raw_type = node.attrs.get("type", "")
        qtype = _QTYPE_IN.get(raw_type, raw_type)
        try:
            label = clean_name(_str(node, "name", "text")) or f"question at line {node.line}"
        except ValueError:
            label = f"question at line {node.line}"
        if qtype == "category":
            try:
                category = (
                    _str(node, "category", "text")
                    if _path(node, "category", "text") is not None
                    else _str(node, "category")
                )
                new = Category(
                    path=category,
                    info=_text(node.child("info"), "moodle"),
                    idnumber=_str(node, "idnumber") or None,
                )
            except ValueError as exc:
                errors.append(ImportIssue(line=node.line, question=ImportIssue.CATEGORY, message=str(exc)))
                continue
            if category not in {c.path for c in categories}:
                categories.append(new)
            continue
        if qtype not in (
            "multichoice",
            "truefalse",
            "shortanswer",
            "numerical",
            "match",
            "essay",
            "description",
        ):
            what = (
                N_("embedded answers (cloze): not supported by gputeam")
                if qtype == "multianswer"
                else N_("the question type {kind}: not supported by gputeam").format(kind=repr(raw_type))
            )
            unsupported.append(
                Unsupported(
                    line=node.line,
                    question=label,
                    qtype=qtype or "(none)",
                    message=what,
                )
            )
            continue
        try:
            fields = _question(node, qtype, category)
        except ValueError as exc:
            errors.append(ImportIssue(line=node.line, question=label, message=str(exc)))
            continue
        tags = fields["tags"]
        assert isinstance(tags, tuple)
        fields["domain"] = resolve_domain(tags, category, category_domains)
        question = Question.model_validate(fields)
        problems = check_question(question)
        errors.extend(ImportIssue(line=node.line, question=question.name, message=p) for p in problems)
        if not problems:
            questions.append(question)
    questions, duplicates = drop_duplicate_ids(questions)
    return Bank(questions=tuple(questions), categories=tuple(categories)), errors + duplicates, unsupported


# --- writing ----------------------------------------------------------------------------


def _cdata(text: str) -> str:
    if not any(c in text for c in "&<>\"'"):
        return text
    return "<![CDATA[" + text.replace("]]>", "]]]]><![CDATA[>") + "]]>"


def _files(t: Text, indent: str) -> str:
    return "".join(
        f'{indent}<file name={quoteattr(f.name)} path={quoteattr(f.path)} encoding="base64">'
        f"{f.content}</file>\n"
        for f in t.files
    )


def _field(tag: str, t: Text, indent: str = "    ") -> str:
    return (
        f'{indent}<{tag} format="{_FORMAT_OUT[t.format]}">\n'
        f"{indent}  <text>{_cdata(t.text)}</text>\n" + _files(t, indent + "  ") + f"{indent}</{tag}>\n"
    )


def _answers_xml(q: Question) -> str:
    out = []
    for a in q.answers:
        fmt = f' format="{_FORMAT_OUT[a.text.format]}"' if q.qtype == "multichoice" else ""
        out.append(
            f'    <answer fraction="{percent(a.fraction)}"{fmt}>\n'
            f"      <text>{_cdata(a.text.text)}</text>\n"
            + _files(a.text, "      ")
            + _field("feedback", a.feedback, "      ")
        )
        if q.qtype == "numerical":
            out.append(f"      <tolerance>{a.tolerance or 0}</tolerance>\n")
        out.append("    </answer>\n")
    return "".join(out)


def _question_xml(q: Question) -> str:
    out = [
        f'  <question type="{_QTYPE_OUT.get(q.qtype, q.qtype)}">\n',
        f"    <name>\n      <text>{_cdata(q.name)}</text>\n    </name>\n",
        _field("questiontext", q.text),
        _field("generalfeedback", q.general_feedback),
        f"    <defaultgrade>{q.default_mark}</defaultgrade>\n",
        f"    <idnumber>{_cdata(q.idnumber or '')}</idnumber>\n",
    ]
    if q.qtype == "multichoice":
        out.append(f"    <single>{'true' if q.single else 'false'}</single>\n")
    if q.qtype == "shortanswer":
        out.append(f"    <usecase>{1 if q.case_sensitive else 0}</usecase>\n")
    out.append(_answers_xml(q))
    for p in q.pairs:
        out.append(
            f'    <subquestion format="{_FORMAT_OUT[p.question.format]}">\n'
            f"      <text>{_cdata(p.question.text)}</text>\n"
            + _files(p.question, "      ")
            + f"      <answer>\n        <text>{_cdata(p.answer)}</text>\n      </answer>\n"
            "    </subquestion>\n"
        )
    if q.tags:
        out.append(
            "    <tags>\n"
            + "".join(f"      <tag><text>{_cdata(t)}</text></tag>\n" for t in q.tags)
            + "    </tags>\n"
        )
    out.append("  </question>\n")
    return "".join(out)


def _category_xml(c: Category) -> str:
    return (
        '  <question type="category">\n'
        f"    <category>\n      <text>{_cdata(c.path)}</text>\n    </category>\n"
        + _field("info", c.info)
        + f"    <idnumber>{_cdata(c.idnumber or '')}</idnumber>\n"
        "  </question>\n"
    )


def write_moodle_xml(bank: Bank) -> str:
    """The bank as Moodle XML: a category element wherever the category changes (with its
    info and idnumber when the bank has them), then each question."""
    known = {c.path: c for c in bank.categories}
    out = ['<?xml version="1.0" encoding="UTF-8"?>\n<quiz>\n']
    category = ""
    written: set[str] = set()
    for q in bank.questions:
        if q.category != category:
            category = q.category
            out.append(_category_xml(known.get(category, Category(path=category))))
            written.add(category)
        out.append(_question_xml(q))
    for c in bank.categories:
        if c.path not in written:
            out.append(_category_xml(c))
    out.append("</quiz>\n")
    return "".join(out)
