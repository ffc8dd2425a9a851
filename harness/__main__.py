"""`python -m harness` is the `mtg-conformance` command."""

from harness.cli import main

raise SystemExit(main())
