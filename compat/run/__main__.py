"""`python -m compat.run script.py args...`: the same as `uai-run`."""

from compat.run.cli import run

if __name__ == "__main__":
    run()
