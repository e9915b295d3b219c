"""Match reports (numbers only; pure Python): ``build_report(ruleset, events)``.

Plots and the HTML page are drawn by ``companion.report.render`` (matplotlib, imported only
when a report is written), CSV and JSON by ``companion.report.export``; the match history
and league table by ``companion.report.history``.
"""

from .build import ReportError, adapter_for, build_report

__all__ = ["build_report", "adapter_for", "ReportError"]
