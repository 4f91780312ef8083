"""GIFT: read and write Moodle's plain-text question format, as Moodle's own importer
(``question/format/gift/format.php``) reads it.

A file is a sequence of blocks separated by blank lines; ``//`` lines are comments, and
Moodle 4 reads ``[id:...]`` and ``[tag:...]`` from a question's comments. ``$CATEGORY:``
switches category; ``::name::`` names a question; ``[html]``, ``[moodle]``, ``[plain]`` and
``[markdown]`` set a text's format; ``\\:``, ``\\~``, ``\\=``, ``\\#``, ``\\{``, ``\\}``,
``\\\\`` and ``\\n`` escape. Where Moodle's importer is lenient in a way that loses data (a
numerical answer that is not a number), this reader reports an error instead.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from decimal import Decimal

from gputeam.certify.models import (
    Answer,
    Bank,
    Category,
    ImportIssue,
    MatchPair,
    QType,
    Question,
    Text,
    TextFormat,
    Unsupported,
)
from gputeam.certify.rules import (
    PHP_WHITESPACE,
    check_question,
    clean_name,
    default_name,
    drop_duplicate_ids,
    is_number,
    percent,
    resolve_domain,
    snap_grade,
)
from gputeam.i18n import N_

# Escaped characters become private-use placeholders while the structure is parsed.
_ESCAPES = {
    ":": "\ue03a",
    "#": "\ue023",
    "=": "\ue03d",
    "{": "\ue07b",
    "}": "\ue07d",
    "~": "\ue07e",
    "n": "\ue00a",
}
_BACKSLASH = "\ue05c"
_UNESCAPE = {v: ("\n" if k == "n" else k) for k, v in _ESCAPES.items()}
_FORMATS: dict[str, TextFormat] = {
    "moodle": "moodle",
    "html": "html",
    "plain": "plain",
    "markdown": "markdown",
}
_WEIGHT = re.compile(r"^%(-*)([0-9]{1,2}\.?[0-9]*)%")
_ID = re.compile(r"\[id:((?:\\\]|[^\]\x00-\x1f\x7f])+)\]")
_TAGS = re.compile(r"\[tag:((?:\\\]|[^\]<>`\x00-\x1f\x7f])*)\]")
_CLOZE = re.compile(r"\{\d*:[A-Z_]+:")
_WS = PHP_WHITESPACE
_TF = {"T": True, "TRUE": True, "F": False, "FALSE": False}


class _Invalid(Exception):
    pass


def _pre(text: str) -> str:
    text = text.replace("\\\\", _BACKSLASH)
    for char, holder in _ESCAPES.items():
        text = text.replace("\\" + char, holder)
    return text.replace(_BACKSLASH, "\\")


def _post(text: str) -> str:
    for holder, char in _UNESCAPE.items():
        text = text.replace(holder, char)
    return text


def _with_format(text: str, default: TextFormat = "moodle") -> Text:
    fmt = default
    if text.startswith("["):
        end = text.find("]")
        name = text[1:end] if end > 0 else ""
        if name in _FORMATS:
            fmt = _FORMATS[name]
            text = text[end + 1 :]
    return Text(text=_post(text).strip(_WS), format=fmt)


def _comment(answer: str, fmt: TextFormat) -> tuple[Text, Text]:
    bits = answer.split("#", 1)
    feedback = _with_format(bits[1].strip(_WS), fmt) if len(bits) > 1 else Text(format=fmt)
    return _with_format(bits[0].strip(_WS), fmt), feedback


def _weight(answer: str) -> tuple[float | None, str]:
    m = _WEIGHT.match(answer)
    if not m:
        return None, answer
    value = float(m.group(2)) / 100
    return snap_grade(-value if m.group(1) else value), answer[m.end() :]


def _split(answertext: str, sep: str) -> list[str]:
    parts = answertext.split(sep)
    parts[0] = parts[0].strip(_WS)
    return parts[1:] if not parts[0] else parts


def _num(value: float) -> str:
    text = repr(float(value))
    return text[:-2] if text.endswith(".0") else text


def _decimal(value: Decimal) -> str:
    text = format(value.normalize(), "f")
    return "0" if text in ("-0", "") else text


def _ids_and_tags(comments: str) -> tuple[str | None, tuple[str, ...]]:
    m = _ID.search(comments)
    idnumber = m.group(1).replace("\\]", "]").strip(_WS) if m else None
    tags = tuple(t for t in (raw.replace("\\]", "]").strip(_WS) for raw in _TAGS.findall(comments)) if t)
    return idnumber or None, tags


def _answers(qtype: QType, answertext: str, fmt: TextFormat) -> dict[str, object]:
    """The type-specific fields of a question from its answer text (escapes still held)."""
    if qtype == "multichoice":
        parts = _split(answertext.replace("=", "~="), "~")
        if len(parts) < 2:
            raise _Invalid(N_("not enough answers for a multiple-choice question (2 or more)"))
        answers = []
        for raw in parts:
            raw = raw.strip(_WS)
            fraction: float | None
            if raw.startswith("="):
                fraction, raw = 1.0, raw[1:]
            else:
                fraction, raw = _weight(raw)
            said, feedback = _comment(raw, fmt)
            answers.append(Answer(text=said, fraction=fraction or 0.0, feedback=feedback))
        return {"answers": tuple(answers), "single": "=" in answertext}
    if qtype == "match":
        parts = _split(answertext, "=")
        if len(parts) < 2:
            raise _Invalid(N_("not enough pairs for a matching question (2 or more)"))
        pairs = []
        for raw in parts:
            raw = raw.strip(_WS)
            if "->" not in raw:
                raise _Invalid(N_("matching pair {pair} has no '->'").format(pair=repr(_post(raw))))
            left, right = raw.split("->", 1)
            pairs.append(MatchPair(question=_with_format(left, fmt), answer=_post(right).strip(_WS)))
        return {"pairs": tuple(pairs)}
    if qtype == "truefalse":
        bits = answertext.split("#", 2)
        value = _TF[_with_format(bits[0].strip(_WS), fmt).text]
        wrong_fb = _with_format(bits[1].strip(_WS), fmt) if len(bits) > 1 else Text(format=fmt)
        right_fb = _with_format(bits[2].strip(_WS), fmt) if len(bits) > 2 else Text(format=fmt)
        return {
            "answers": (
                Answer(
                    text=Text(text="true", format="plain"),
                    fraction=1.0 if value else 0.0,
                    feedback=right_fb if value else wrong_fb,
                ),
                Answer(
                    text=Text(text="false", format="plain"),
                    fraction=0.0 if value else 1.0,
                    feedback=wrong_fb if value else right_fb,
                ),
            )
        }
    if qtype == "shortanswer":
        parts = _split(answertext, "=")
        if not parts:
            raise _Invalid(N_("a short-answer question needs at least 1 answer"))
        answers = []
        for raw in parts:
            fraction, raw = _weight(raw.strip(_WS))
            said, feedback = _comment(raw, fmt)
            answers.append(
                Answer(
                    text=Text(text=said.text, format="plain"),
                    fraction=1.0 if fraction is None else fraction,
                    feedback=feedback,
                )
            )
        return {"answers": tuple(answers)}
    if qtype == "numerical":
        body = answertext[1:]
        wrong = ""
        if "~" in body:
            body, wrong = body[: body.index("~")], body[body.index("~") :]
        parts = _split(body, "=")
        if not parts:
            raise _Invalid(N_("a numerical question needs at least 1 answer"))
        answers = []
        for raw in parts:
            fraction, raw = _weight(raw.strip(_WS))
            said, feedback = _comment(raw, fmt)
            number, tolerance = _numeric(said.text)
            answers.append(
                Answer(
                    text=Text(text=number, format="plain"),
                    tolerance=tolerance,
                    fraction=1.0 if fraction is None else fraction,
                    feedback=feedback,
                )
            )
        if wrong:
            answers.append(
                Answer(
                    text=Text(text="*", format="plain"),
                    fraction=0.0,
                    tolerance=0.0,
                    feedback=_comment(wrong, fmt)[1],
                )
            )
        return {"answers": tuple(answers)}
    return {}


def _numeric(text: str) -> tuple[str, float]:
    """``answer``, ``answer:tolerance`` or ``min..max`` → (answer, tolerance)."""
    if text.find("..") > 0:
        low, high = (s.strip(_WS) for s in text.split("..", 1))
        if not (is_number(low) and is_number(high)):
            raise _Invalid(N_("range {text} is not two numbers").format(text=repr(text)))
        # Decimal arithmetic, so 3.141..3.142 is 3.1415 ± 0.0005 and not a binary neighbour
        mid = (Decimal(low) + Decimal(high)) / 2
        return _decimal(mid), float(Decimal(high) - mid)
    if text.find(":") > 0:
        value, tol = (s.strip(_WS) for s in text.split(":", 1))
        if not (is_number(value) and is_number(tol)):
            raise _Invalid(N_("answer {answer} is not a number with a tolerance").format(answer=repr(text)))
        return value, float(tol)
    if text.strip(_WS) != "*" and not is_number(text.strip(_WS)):
        raise _Invalid(N_("answer {answer} is not a number").format(answer=repr(text)))
    return text.strip(_WS), 0.0


def _qtype(description: bool, answertext: str) -> QType:
    if description:
        return "description"
    if answertext == "":
        return "essay"
    if answertext.startswith("#"):
        return "numerical"
    if "~" in answertext:
        return "multichoice"
    if "=" in answertext and "->" in answertext:
        return "match"
    check = answertext.split("#", 1)[0].strip(_WS) if answertext.find("#") > 0 else answertext
    return "truefalse" if check in _TF else "shortanswer"


def _blocks(text: str) -> list[tuple[int, list[str]]]:
    blocks: list[tuple[int, list[str]]] = []
    current: list[str] = []
    start = 1
    # Lines end at \n (Moodle reads a file as PHP's file() does), \r\n or a lone \r.
    for number, line in enumerate(text.replace("\r\n", "\n").replace("\r", "\n").split("\n"), start=1):
        line = line.strip(_WS)
        if not line:
            if current:
                blocks.append((start, current))
            current = []
        else:
            if not current:
                start = number
            current.append(line)
    if current:
        blocks.append((start, current))
    return blocks


def read_gift(
    text: str, category_domains: Mapping[str, str] | None = None
) -> tuple[Bank, list[ImportIssue], list[Unsupported]]:
    """Parse GIFT text into a bank, the invalid questions and the unsupported ones."""
    questions: list[Question] = []
    categories: list[Category] = []
    errors: list[ImportIssue] = []
    unsupported: list[Unsupported] = []
    category = ""
    for start, lines in _blocks(text):
        comments = "\n".join(line for line in lines if line.startswith("//"))
        body_lines = [(" " if line.startswith("//") else line) for line in lines]
        line_no = start + next((i for i, line in enumerate(lines) if not line.startswith("//")), 0)
        body = "\n".join(body_lines).strip(_WS)
        if not body:
            continue
        body = _pre(body)
        if body.startswith("$CATEGORY:"):
            category = _post(body[10:]).strip(_WS)
            if category not in {c.path for c in categories}:
                categories.append(Category(path=category))
            continue
        result = _read_question(body, comments, category, category_domains, line_no)
        if isinstance(result, Question):
            problems = check_question(result)
            if problems:
                errors.extend(ImportIssue(line=line_no, question=result.name, message=p) for p in problems)
            else:
                questions.append(result)
        elif isinstance(result, Unsupported):
            unsupported.append(result)
        else:
            errors.append(result)
    questions, duplicates = drop_duplicate_ids(questions)
    return Bank(questions=tuple(questions), categories=tuple(categories)), errors + duplicates, unsupported


def _read_question(
    body: str, comments: str, category: str, category_domains: Mapping[str, str] | None, line_no: int
) -> Question | ImportIssue | Unsupported:
    name: str | None = None
    if body.startswith("::"):
        rest = body[2:]
        end = rest.find("::")
        if end >= 0:
            name = clean_name(_post(rest[:end]))
            body = rest[end + 2 :].strip(_WS)
        else:
            body = rest
    label = name or default_name(_post(body))
    if _CLOZE.search(body):
        return Unsupported(
            line=line_no,
            question=label,
            qtype="multianswer",
            message=N_(
                "embedded answers (cloze) are not supported; import it as Moodle XML "
                "after converting, or split it into separate questions"
            ),
        )
    start, finish = body.find("{"), body.find("}")
    description = start < 0 and finish < 0
    if description:
        answertext, qtext = "", body
    elif start < 0 or finish < 0 or finish < start:
        return ImportIssue(line=line_no, question=label, message=N_("the answers are not enclosed in { }"))
    else:
        answertext = body[start + 1 : finish].strip(_WS)
        blank = "" if body.endswith("}") else "_____"
        qtext = body[:start] + blank + body[finish + 1 :]
    general = ""
    sep = answertext.rfind("####")
    if sep >= 0:
        general, answertext = answertext[sep + 4 :], answertext[:sep].strip(_WS)
    text = _with_format(qtext)
    qtype = _qtype(description, answertext)
    idnumber, tags = _ids_and_tags(comments)
    try:
        fields = _answers(qtype, answertext, text.format)
    except _Invalid as exc:
        return ImportIssue(line=line_no, question=name or default_name(text.text), message=str(exc))
    return Question.model_validate(
        {
            "qtype": qtype,
            "name": name or default_name(text.text),
            "text": text,
            "general_feedback": _with_format(general, text.format),
            "category": category,
            "idnumber": idnumber,
            "tags": tags,
            "domain": resolve_domain(tags, category, category_domains),
            "default_mark": 0.0 if qtype == "description" else 1.0,
            "line": line_no,
            **fields,
        }
    )


# --- writing ----------------------------------------------------------------------------


def _esc(text: str) -> str:
    for char in ("\\", "#", "=", "~", "{", "}", ":"):
        text = text.replace(char, "\\" + char)
    return text.replace("\r", "").replace("\n", "\\n")


def _text(t: Text, default: TextFormat = "moodle") -> str:
    fmt = t.format if t.format in _FORMATS else "moodle"
    prefix = f"[{fmt}]" if t.text and fmt != default else ""
    return prefix + _esc(t.text)


def _general(q: Question, indent: str = "\t") -> str:
    if not q.general_feedback.text:
        return ""
    out = "####" + _text(q.general_feedback, q.text.format)
    return indent + out + "\n" if indent else out


def _meta(q: Question) -> str:
    bits = []
    if q.idnumber:
        bits.append(f"[id:{q.idnumber.replace(']', chr(92) + ']')}]")
    bits += [f"[tag:{t.replace(']', chr(92) + ']')}]" for t in q.tags]
    return f"// {' '.join(bits)}\n" if bits else ""


def _body(q: Question) -> str:
    fmt = q.text.format
    head = f"::{_esc(q.name)}::" + _text(q.text)
    if q.qtype == "description":
        return head + "\n"
    if q.qtype == "essay":
        return head + "{" + _general(q, "") + "}\n"
    if q.qtype == "truefalse":
        right = next((a for a in q.answers if a.fraction == 1), q.answers[0])
        wrong = next(a for a in q.answers if a is not right)
        out = head + "{" + ("TRUE" if right.text.text == "true" else "FALSE")
        rf, wf = _text(right.feedback, fmt), _text(wrong.feedback, fmt)
        out += ("#" + wf) if wf else ("#" if rf else "")
        out += ("#" + rf) if rf else ""
        return out + _general(q, "") + "}\n"
    lines = [head + ("{#" if q.qtype == "numerical" else "{")]
    for a in q.answers:
        feedback = _text(a.feedback, fmt)
        if q.qtype == "multichoice":
            mark = (
                "="
                if (a.fraction == 1 and q.single)
                else "~"
                if a.fraction == 0
                else f"~%{percent(a.fraction)}%"
            )
            lines.append("\t" + mark + _text(a.text, fmt) + ("#" + feedback if feedback else ""))
        elif q.qtype == "shortanswer":
            lines.append(f"\t=%{percent(a.fraction)}%" + _esc(a.text.text) + "#" + feedback)
        elif a.text.text == "*":
            lines.append("\t~#" + feedback)
        else:
            lines.append(f"\t=%{percent(a.fraction)}%{a.text.text}:{_num(a.tolerance or 0.0)}#" + feedback)
    for p in q.pairs:
        lines.append("\t=" + _text(p.question, fmt) + " -> " + _esc(p.answer))
    return "\n".join(lines) + "\n" + _general(q) + "}\n"


def write_gift(bank: Bank) -> str:
    """The bank as GIFT text, as Moodle's exporter writes it (with Moodle 4's id and tag
    comment line). GIFT cannot say that a short answer is case-sensitive."""
    out: list[str] = []
    category = ""
    for q in bank.questions:
        if q.category != category:
            category = q.category
            out.append(f"// question: 0  name: Switch category to {category}\n$CATEGORY: {category}\n\n")
        # No "// name:" comment as Moodle writes: a name holding "[id:...]" would be read as the id.
        out.append(_meta(q) + _body(q) + "\n")
    return "".join(out)
