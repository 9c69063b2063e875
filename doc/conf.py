# SPDX-License-Identifier: GPL-2.0-only
# Standalone Sphinx configuration: sphinx-build -W -b html doc build/doc
project = "debloat"
copyright = "2026, the debloat authors"
master_doc = "index"
exclude_patterns = ["replace.txt"]
highlight_language = "cpp"
