"""What-if analysis of a position: :func:`analyze` compares the decisions of the player to act by
Monte-Carlo playouts (engine only: pandas for the frame, Plotly loaded only by ``figure()``)."""

from .analyze import Analysis, analyze
from .candidates import Candidate, default_candidates

__all__ = ["Analysis", "Candidate", "analyze", "default_candidates"]
