"""Many games played by bots: the one runner (``runner``) under simulate and sweep (``simulation``),
tournaments, side-by-side comparison (``comparison``), the what-if analysis (``analysis``) and the
statistics they report (``results``)."""
