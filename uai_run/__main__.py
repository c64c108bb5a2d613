"""`python -m uai_run script.py args...`: the same as `uai-run`."""

from uai_run.cli import run

if __name__ == "__main__":
    run()
