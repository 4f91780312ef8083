"""Which passwords are refused: too short, common or breached, or too easy to guess.

One rule for every door (the web's account and users pages, the API, ``gputeam admin
create``): :func:`password_problem`, called by :func:`gputeam.store.accounts.hash_password`
before anything is hashed.

- at least :data:`MIN_PASSWORD_LENGTH` characters;
- not one of the common and breached passwords of the bundled list (``data/
  common-passwords.txt``: the 11,611 entries of 8 or more characters of zxcvbn's list of
  the 30,000 most common passwords of leaked corpora, MIT licence, noted beside it),
  compared without case and surrounding spaces; read once, when first needed;
- a zxcvbn strength score (0-4, an estimate of the guesses an attacker needs from
  dictionaries, keyboard patterns, repeats, sequences, dates and l33t substitutions) of
  at least :data:`MIN_PASSWORD_SCORE`, with the username and the organisation's words
  counted as known to the attacker.
"""

from __future__ import annotations

from functools import cache
from importlib import resources

from gputeam.i18n import N_
from gputeam.store.errors import StoreError, refused

MIN_PASSWORD_LENGTH = 8
#: the least zxcvbn score a password must reach: 2 is "somewhat guessable" (about 10^6 to
#: 10^8 guesses, out of reach of an online attack against the login throttle), where 0
#: and 1 fall to the first thousands of guesses ("aaaaaaaa", "qwertyuiop", "p@ssw0rd123")
MIN_PASSWORD_SCORE = 2
#: zxcvbn looks at this many characters at most (its time grows with the length; a
#: longer password is judged by its start, and is long enough anyway)
_SCORED_LENGTH = 100


@cache
def common_passwords() -> frozenset[str]:
    """The bundled list of common and breached passwords (lower case), read once."""
    text = resources.files("gputeam.store").joinpath("data/common-passwords.txt").read_text("utf-8")
    return frozenset(line.strip().lower() for line in text.splitlines() if line.strip())


def is_common(password: str) -> bool:
    return password.strip().lower() in common_passwords()


def strength(password: str, known: tuple[str, ...] = ()) -> int:
    """zxcvbn's score of ``password`` (0: guessed at once ... 4: very hard to guess);
    ``known``: words the attacker is assumed to know (the username)."""
    from zxcvbn import zxcvbn  # type: ignore[import-untyped]

    words = [w for w in known if w]
    return int(zxcvbn(password[:_SCORED_LENGTH], user_inputs=words)["score"])


def password_problem(password: str, *, known: tuple[str, ...] = ()) -> StoreError | None:
    """Why ``password`` is refused (a :class:`StoreError` on ``password``), or None."""
    if len(password) < MIN_PASSWORD_LENGTH:
        return refused(
            "password",
            N_("too short"),
            None,
            N_("at least {n} characters").format(n=MIN_PASSWORD_LENGTH),
        )
    expected = N_(
        "a password that is not on lists of common passwords: several unrelated words, "
        "or 12+ characters mixed"
    )
    if is_common(password):
        return refused("password", N_("one of the most common (breached) passwords"), None, expected)
    if strength(password, known) < MIN_PASSWORD_SCORE:
        return refused(
            "password",
            N_("too easy to guess (a common word, name, repeat, sequence or keyboard pattern)"),
            None,
            expected,
        )
    return None


def check_password(password: str, *, known: tuple[str, ...] = ()) -> None:
    """Raise :func:`password_problem`'s error, if any."""
    problem = password_problem(password, known=known)
    if problem is not None:
        raise problem
