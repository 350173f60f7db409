"""The access matrix for policy authors: who can see what, and what changed.

``access`` probes the catalog (``catalog``) through each persona's own token;
``questions`` runs questions × personas as real agent turns; ``baseline``
diffs two runs; ``report`` renders JSON, Markdown and self-contained HTML;
``run`` ties them together for the CLI and the Matrix view. No Qt here.
"""
