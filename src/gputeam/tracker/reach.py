"""Role-shaped data: whose personal data a caller may see, and a plan cut down to it.

A caller's *reach* is the set of people whose personal fields they may read: an admin
everyone, a manager the people of their teams, an engineer themself, a viewer nobody
(:meth:`gputeam.web.permissions.Principal.readable_people` states who, per role; this
module turns that into people's keys and applies it). Whatever door a plan leaves by (the
JSON API, the plan page and its roadmap chart, the PDF report and every other report
rendered from the shaped plan), it is first passed through :func:`shape_plan` with the
caller's reach.

A plan shaped to a reach keeps:

- everything about the organisation as a whole: the target team by month, role gaps,
  hires, contractor hours, cost lines and totals (salaries summed over everyone with
  hires, training and contractors), ROI, risk figures and the bus factor per skill domain
  (counts of holders, never names);
- of each person within reach: their record in the scenario (name, level, salary, skills,
  certifications), their fit, assignment and roadmap, and the sentences about them;
- the roadmaps of planned hires (they are not people yet).

It drops, for every person outside the reach, their record, fit, assignment, place in the
unassigned list, roadmap and training delay, and the explanations, warnings and notes
that name them; any other sentence or text naming them (a hire's reason naming the
closest candidate on staff) reads :data:`NOT_SHOWN` instead. Per-person salaries never
leave the reach. The dashboard's salary sum is shaped by :func:`shape_salary_cost`: its
amounts are left out beyond admins while it holds 1 to 4 recorded salaries.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from pydantic import BaseModel

from gputeam.i18n import N_
from gputeam.planning.result import Plan
from gputeam.planning.text import Term, Text, say

#: who a caller may read, as ``Principal.readable_people()`` states it: ``(team ids,
#: person id)`` (None: not narrowed that way; both None: everyone), or None: nobody
Readable = tuple[frozenset[int] | None, int | None] | None


def readable(role: str, person_id: int | None, team_ids: frozenset[int]) -> Readable:
    """Whose records a caller of ``role`` may read, as :data:`Readable` (the one home of
    the rule; ``Principal.readable_people`` and ``may_read_person`` ask it): an admin
    everyone, a manager the people of ``team_ids``, an engineer their own record
    (``person_id``), anyone else (a viewer) nobody."""
    if role == "admin":
        return None, None
    if role == "manager":
        return team_ids, None
    if role == "engineer" and person_id is not None:
        return None, person_id
    return None


def reads(readable_: Readable, person_id: int, team_id: int | None) -> bool:
    """Is the person (``person_id``, in team ``team_id``) within ``readable_``?"""
    if readable_ is None:
        return False
    teams, own = readable_
    if teams is None and own is None:
        return True
    return (own is not None and own == person_id) or (teams is not None and team_id in teams)


def needs_approval(role: str, own_person_id: int | None, person_id: int) -> bool:
    """Does a record a caller of ``role`` (linked to ``own_person_id``) makes for the person
    ``person_id`` (a certificate, a skill rating, course hours) wait for approval? Yes when
    it is their own record and they are not an admin: nobody vouches for themself."""
    return role != "admin" and own_person_id is not None and own_person_id == person_id


def may_approve(
    role: str, own_person_id: int | None, team_ids: frozenset[int], person_id: int, team_id: int | None
) -> bool:
    """May a caller approve (or reject) a record waiting for approval for the person
    ``person_id`` in team ``team_id``? An admin, or a manager of that team; never the
    person themself."""
    if own_person_id is not None and own_person_id == person_id:
        return False
    return role == "admin" or (role == "manager" and team_id is not None and team_id in team_ids)


def approvable(role: str, team_ids: frozenset[int]) -> frozenset[int] | None:
    """Whose waiting records a caller may decide, for a list: None for everyone (an
    admin), else the teams (a manager's own; anyone else: none). The person's own
    records are left out by :func:`may_approve`."""
    if role == "admin":
        return None
    return team_ids if role == "manager" else frozenset()


@dataclass(frozen=True)
class Reach:
    """The people whose personal data a caller may see: ``everyone``, else the people
    whose keys (roster ids) are in ``keys`` (empty: nobody, aggregates only)."""

    everyone: bool = False
    keys: frozenset[str] = field(default_factory=frozenset)

    @classmethod
    def of(cls, readable: Readable, people: Mapping[str, tuple[int, int | None]]) -> Reach:
        """The reach of a caller who may read ``readable`` (see :data:`Readable`), over
        ``people`` (person key to (person id, team id), the organisation's everyone)."""
        if readable is None:
            return cls()
        if readable == (None, None):
            return cls(everyone=True)
        return cls(keys=frozenset(key for key, (pid, team) in people.items() if reads(readable, pid, team)))

    def sees(self, key: str) -> bool:
        """May the caller read the person with this key?"""
        return self.everyone or key in self.keys


#: what stands in for a sentence about someone out of reach (the dashboard's words)
NOT_SHOWN = N_("(not shown to your role)")


def shape_plan(plan: Plan, reach: Reach) -> Plan:
    """``plan`` as a caller with ``reach`` may see it (the module's rule); the plan
    itself when the reach is everyone."""
    if reach.everyone:
        return plan
    out_of_reach = [(p.id, p.name) for p in plan.scenario.people if not reach.sees(p.id)]
    out_of_reach += [(r.person, r.name) for r in plan.roadmaps if not r.hire and not reach.sees(r.person)]
    hide = _Hide.of(frozenset(k for k, _ in out_of_reach), {n for _, n in out_of_reach if n.strip()})

    s = plan.sourcing
    sourcing = s.model_copy(
        update={
            "assignments": tuple(a for a in s.assignments if reach.sees(a.person)),
            "placements": tuple(x for x in s.placements if reach.sees(x.person)),
            "unassigned": tuple(k for k in s.unassigned if reach.sees(k)),
            "explanation": hide.lines(s.explanation),
            "explanation_texts": hide.texts(s.explanation_texts),
            "uncovered": hide.lines(s.uncovered),
            "uncovered_texts": hide.texts(s.uncovered_texts),
            "details": s.details.model_copy(
                update={
                    "start_delay_months": {
                        k: v for k, v in s.details.start_delay_months.items() if reach.sees(k)
                    }
                }
            ),
        }
    )
    roi = plan.roi.model_copy(
        update={"notes": hide.lines(plan.roi.notes), "note_texts": hide.texts(plan.roi.note_texts)}
    )
    shaped = plan.model_copy(
        update={
            "scenario": plan.scenario.model_copy(
                update={"people": tuple(p for p in plan.scenario.people if reach.sees(p.id))}
            ),
            "gaps": plan.gaps.model_copy(
                update={"fits": tuple(f for f in plan.gaps.fits if reach.sees(f.person))}
            ),
            "sourcing": sourcing,
            "roadmaps": tuple(r for r in plan.roadmaps if r.hire or reach.sees(r.person)),
            "roi": roi,
            "warnings": tuple(w for w in plan.warnings if hide.keeps(w.message, w.text)),
            "notes": tuple(n for n in plan.notes if hide.keeps(n.message, n.text)),
        }
    )
    # whatever else names someone out of reach (a hire's reason naming the closest
    # candidate ...) is replaced by NOT_SHOWN, wherever it sits
    swept = hide.sweep(shaped)
    assert isinstance(swept, Plan)
    return swept


@dataclass(frozen=True)
class _Hide:
    """What must not be shown: people's keys (a string that is one) and names (a string
    that holds one as whole words: "Li" hides "Li Wei's roadmap", not "Linux")."""

    keys: frozenset[str]
    names: re.Pattern[str] | None

    @classmethod
    def of(cls, keys: frozenset[str], names: set[str]) -> _Hide:
        longest_first = sorted(names, key=len, reverse=True)
        pattern = "|".join(re.escape(n.strip()) for n in longest_first)
        return cls(keys, re.compile(rf"(?<!\w)(?:{pattern})(?!\w)") if names else None)

    def mentions(self, text: str) -> bool:
        return text in self.keys or (self.names is not None and self.names.search(text) is not None)

    def names_someone(self, param: object) -> bool:
        if isinstance(param, str):
            return self.mentions(param)
        if isinstance(param, Term):
            return self.mentions(param.term)
        if isinstance(param, Text):
            return self.says(param)
        if isinstance(param, tuple):
            return any(self.names_someone(p) for p in param)
        return False

    def says(self, sentence: Text) -> bool:
        """Does the sentence name anyone out of reach? Names enter a sentence only as its
        parameters (its template is a fixed message), so those are what is searched."""
        return any(self.names_someone(v) for v in sentence.params.values())

    def lines(self, items: Iterable[str]) -> tuple[str, ...]:
        return tuple(i for i in items if not self.mentions(i))

    def texts(self, items: Iterable[Text]) -> tuple[Text, ...]:
        return tuple(t for t in items if not self.says(t))

    def keeps(self, message: str, text: Text | None) -> bool:
        return not (self.mentions(message) or (text is not None and self.says(text)))

    def sweep(self, value: object) -> object:
        """``value`` with every sentence or string naming someone out of reach replaced
        by :data:`NOT_SHOWN` (and mapping entries keyed by one dropped); unchanged parts
        are the same objects."""
        if isinstance(value, Text):
            return say(NOT_SHOWN) if self.says(value) else value
        if isinstance(value, str):
            return NOT_SHOWN if self.mentions(value) else value
        if isinstance(value, BaseModel):
            changes = {}
            for name in type(value).model_fields:
                old = getattr(value, name)
                new = self.sweep(old)
                if new is not old:
                    changes[name] = new
            return value.model_copy(update=changes) if changes else value
        if isinstance(value, tuple):
            if not value or isinstance(value[0], int | float):  # figures (cost samples ...)
                return value
            items = tuple(self.sweep(v) for v in value)
            return items if any(a is not b for a, b in zip(items, value, strict=True)) else value
        if isinstance(value, dict):
            entries = {
                k: self.sweep(v) for k, v in value.items() if not (isinstance(k, str) and self.mentions(k))
            }
            same = len(entries) == len(value) and all(entries[k] is value[k] for k in entries)
            return value if same else entries
        return value


#: the fewest recorded salaries a sum may hold to be shown beyond admins
MIN_SALARIES = 5


def shape_salary_cost(cost: Mapping[str, object], reach: Reach) -> dict[str, object]:
    """The organisation's annual salary cost (the dashboard's ``annual_salary_cost``) as a
    caller with ``reach`` may see it. Everyone: all of it. Anyone else: all of it too when
    no salary is recorded (the figure is band estimates only) or at least
    :data:`MIN_SALARIES` are; with 1 to 4 recorded salaries the amounts (``total``,
    ``recorded``, ``estimated``) are left out (``None``), head counts and basis kept:
    "987,654 recorded for 1 person" is that person's salary, and a total less the band
    estimates gives it away as well."""
    recorded = cost.get("recorded_people")
    if reach.everyone or not isinstance(recorded, int) or not 0 < recorded < MIN_SALARIES:
        return dict(cost)
    return {k: (None if k in ("total", "recorded", "estimated") else v) for k, v in cost.items()}
