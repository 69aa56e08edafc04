"""Regenerate docs/tasks.md from the family files, playing every oracle for its length.

Usage: python scripts/tasks_doc.py [OUT]  (OUT defaults to docs/tasks.md)
"""

import sys
from pathlib import Path

from androidrl.solvers import oracle_lengths
from androidrl.tasks.catalog import render_tasks_page
from androidrl.tasks.family import family_specs
from androidrl.tasks.spec import TIERS

SEEDS = range(20)  # the oracle lengths of docs/tasks.md: over more seeds than tests/test_families.py runs


def main(argv: list[str]) -> int:
    out = Path(argv[0]) if argv else Path(__file__).resolve().parents[1] / "docs" / "tasks.md"
    lengths = {(name, tier): max(oracle_lengths(name, tier, SEEDS)) for name in family_specs() for tier in TIERS}
    out.write_text(render_tasks_page(lengths), encoding="utf-8")
    print(f"wrote {out} ({len(family_specs())} families)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
