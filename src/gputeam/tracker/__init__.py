"""The tracker's application layer: rules of the tracker that no single door owns
(no SQL, no HTTP; the clock and the organisation handed in).

- :mod:`gputeam.tracker.reach`: whose personal data a caller may see, and a saved or
  previewed plan shaped to that reach (every door: API, pages, PDF and the other reports).
"""

from __future__ import annotations

from gputeam.tracker.reach import Reach, shape_plan, shape_salary_cost

__all__ = ["Reach", "shape_plan", "shape_salary_cost"]
