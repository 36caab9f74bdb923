#!/usr/bin/env bash
# Set up son on a Debian/Ubuntu machine, from a fresh one up:
#   - Debian packages, only those whose program is missing: graphviz (`dot`),
#     chromium and chromium-driver (the explorer's browser test),
#     python3 and python3-pip, and python-is-python3 (so that the README's
#     `python -m ...` commands find the same interpreter as `python3`);
#   - son itself, editable, with the test, notebook and dev extras.
# Safe to run again.  Runs apt-get as root, or through sudo.
#
# On a distribution's own Python, which refuses pip installs (PEP 668), the
# packages go in with --break-system-packages (what a fresh machine or a CI
# container wants).  To keep the system Python untouched, run this script
# inside a virtual environment instead:
#   python3 -m venv .venv && . .venv/bin/activate && bash scripts/setup.sh
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."

say() { printf 'setup: %s\n' "$*"; }
die() { printf 'setup: error: %s\n' "$*" >&2; exit 1; }
have() { command -v "$1" >/dev/null 2>&1; }

as_root() {
    if [ "$(id -u)" -eq 0 ]; then
        "$@"
    elif have sudo; then
        sudo "$@"
    else
        die "cannot run '$*': not root and no sudo; install the Debian packages yourself"
    fi
}

# ---------------------------------------------------------------- Debian packages
packages=()
have dot || packages+=(graphviz)
# the explorer's browser test drives Debian's headless Chromium through its WebDriver
have chromium || packages+=(chromium)
have chromedriver || packages+=(chromium-driver)
if ! have python3; then
    packages+=(python3 python3-pip python-is-python3)
else
    python3 -m pip --version >/dev/null 2>&1 || packages+=(python3-pip)
    # python-is-python3 adds /usr/bin/python, which helps only if python3 is Debian's
    if ! have python && [ -e /usr/bin/python3 ] \
        && [ "$(readlink -f "$(command -v python3)")" = "$(readlink -f /usr/bin/python3)" ]; then
        packages+=(python-is-python3)
    fi
fi

if [ ${#packages[@]} -eq 0 ]; then
    say "Debian packages: nothing to install ($(command -v dot) and $(command -v python3) are here)"
else
    have apt-get || die "missing ${packages[*]} and no apt-get: install them with your package manager"
    say "Debian packages: apt-get update && apt-get install -y ${packages[*]}"
    as_root env DEBIAN_FRONTEND=noninteractive apt-get update
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y "${packages[@]}"
fi

# ---------------------------------------------------------------- python == python3
where() { "$1" -c 'import os, sys; print(os.path.realpath(sys.executable), sys.prefix)'; }
have python || die "'python' is not on PATH but the README's commands use it; install the Debian \
package python-is-python3, or work in a virtual environment (python3 -m venv .venv && . .venv/bin/activate)"
if [ "$(where python)" != "$(where python3)" ]; then
    die "'python' ($(where python)) and 'python3' ($(where python3)) are different interpreters; \
activate the one you want (a virtual environment has both names) and run this again"
fi
say "python: $(command -v python) is $(python3 --version) at $(where python3)"

# ---------------------------------------------------------------- son
pip_args=(-e '.[test,notebooks,dev]')
managed=$(python3 - <<'PY'
import os, sys, sysconfig
marker = os.path.join(sysconfig.get_path("stdlib"), "EXTERNALLY-MANAGED")
print(marker if sys.prefix == sys.base_prefix and os.path.exists(marker) else "")
PY
)
if [ -n "$managed" ]; then
    say "note: this Python is managed by the OS ($managed); installing with --break-system-packages"
    say "      (for a separate environment: python3 -m venv .venv && . .venv/bin/activate && bash scripts/setup.sh)"
    pip_args+=(--break-system-packages)
fi
say "installing son: python3 -m pip install ${pip_args[*]}"
python3 -m pip install "${pip_args[@]}"
say "done: try 'python -m son tour' and 'python -m pytest -q'"
