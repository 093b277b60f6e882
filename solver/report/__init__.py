"""An HTML report of one case: the situation, every distinct outcome with its witness in words, the
ruling's verdict, the optimal line, and the choice tree drawn (solver.tree, solver.layout).

One self-contained file: inline SVG, CSS and a few lines of JavaScript; nothing is loaded from
anywhere (no fonts, no scripts, no images by URL). Every text from the case is escaped.
"""


from .data import PICTURE_MAX_NODES, ReportData, analyse
from .index import index_html, write_batch_report
from .page import render_html, write_report

__all__ = ["ReportData", "analyse", "render_html", "write_report", "write_batch_report", "index_html",
           "PICTURE_MAX_NODES"]
