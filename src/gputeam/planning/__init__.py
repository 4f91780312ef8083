"""The planning core: sizing, gaps, sourcing, roadmaps, costs, ROI. Pure functions."""

from gputeam.planning.pipeline import plan
from gputeam.planning.result import Plan
from gputeam.planning.roi import article_roi

__all__ = ["Plan", "article_roi", "plan"]
