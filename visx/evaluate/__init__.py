"""Measure visx on labelled list pages (``visx eval``).

``dataset`` reads a testbed folder, ``cache`` keeps rendered snapshots,
``metrics`` scores regions against gold records and tables against gold
fields (``assign`` maps fields to columns), ``runner`` ties them to the
pipeline and ``report`` writes the CSV, tables and chart.
"""
