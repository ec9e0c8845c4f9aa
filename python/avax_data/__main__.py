"""``python -m avax_data``: the same command line as ``avax-data`` (see :mod:`avax_data.cli`)."""

from avax_data.cli import main

if __name__ == "__main__":
    raise SystemExit(main())
