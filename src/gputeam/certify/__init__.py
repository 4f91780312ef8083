"""Internal certification programmes, the pure part: question banks (GIFT and Moodle XML),
blueprints and form selection, scoring, and item analysis. No I/O: readers take the
file's bytes or text, and every function takes the world as arguments.

Public API (everything else is internal):

- models: :class:`Question`, :class:`Answer`, :class:`MatchPair`, :class:`Text`,
  :class:`EmbeddedFile`, :class:`Category`, :class:`Bank`, :class:`ImportResult`, :class:`ImportIssue`,
  :class:`Unsupported`
- banks: :func:`read_bank`, :func:`write_bank`, :func:`summarise`, :func:`gift_cannot_hold`,
  :class:`BankReadError`
- blueprints: :func:`domain_counts`, :func:`select_form`, :func:`form_seed`,
  :class:`Form`, :class:`BlueprintError`
- scoring: :func:`score_question`, :func:`score_exam`, :class:`ExamResult`,
  :class:`DomainScore`
- item analysis: :func:`analyse_items`, :class:`ItemAnalysis`, :class:`DomainAnalysis`
"""

from gputeam.certify.analysis import DomainAnalysis, ItemAnalysis, analyse_items
from gputeam.certify.banks import gift_cannot_hold, read_bank, summarise, write_bank
from gputeam.certify.blueprint import BlueprintError, Form, domain_counts, form_seed, select_form
from gputeam.certify.models import (
    Answer,
    Bank,
    Category,
    EmbeddedFile,
    ImportIssue,
    ImportResult,
    MatchPair,
    Question,
    Text,
    Unsupported,
)
from gputeam.certify.rules import BankReadError
from gputeam.certify.scoring import DomainScore, ExamResult, score_exam, score_question

__all__ = [
    "Answer",
    "Bank",
    "BankReadError",
    "BlueprintError",
    "Category",
    "DomainAnalysis",
    "DomainScore",
    "EmbeddedFile",
    "ExamResult",
    "Form",
    "ImportIssue",
    "ImportResult",
    "ItemAnalysis",
    "MatchPair",
    "Question",
    "Text",
    "Unsupported",
    "analyse_items",
    "domain_counts",
    "form_seed",
    "gift_cannot_hold",
    "read_bank",
    "score_exam",
    "score_question",
    "select_form",
    "summarise",
    "write_bank",
]
